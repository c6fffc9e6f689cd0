//! The Hook controller: validates image and playbook, writes the Ready condition (Forklift's hook controller).

import {
  Controller,
  noopLogger,
  SharedInformerFactory,
  splitMetaNamespaceKey,
} from '@ctrlkit/runtime';
import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/workqueue';
import type { Hook } from '../api/hook.js';
import { validateHook } from './hook-validation.js';
import { ConditionStatusWriter } from './internal/condition-status.js';
import { forkliftResource, type ResourceControllerOptions } from './internal/resources.js';

/** Options of {@link HookController}. */
export type HookControllerOptions = ResourceControllerOptions;

/** Reconciles Hooks: {@link validateHook}, then `status.conditions` and `observedGeneration`. */
export class HookController {
  readonly #factory: SharedInformerFactory;
  readonly #ownFactory: boolean;
  readonly #writer: ConditionStatusWriter;
  readonly #controller: Controller;

  constructor(options: HookControllerOptions) {
    if (options?.kubeConfig === undefined)
      throw new InvalidArgumentError('kubeConfig', 'is required');
    const clock: Clock = options.clock ?? realClock;
    this.#ownFactory = options.informerFactory === undefined;
    this.#factory = options.informerFactory ?? new SharedInformerFactory(options.kubeConfig, {});
    this.#writer = new ConditionStatusWriter(options.kubeConfig, 'Hook', clock);
    this.#controller = new Controller({
      name: 'hook',
      reconcile: async (key) => {
        const { namespace, name } = splitMetaNamespaceKey(key);
        await this.#writer.reconcile<Hook>(namespace, name, (hook, cnd) => {
          cnd.setCondition(...validateHook(hook));
        });
      },
      clock,
      logger: options.logger ?? noopLogger,
    });
    this.#controller.watch(this.#factory.forResource<Hook>(forkliftResource('Hook')));
  }

  /** The runtime controller, to add to a `Manager` instead of calling `run`. */
  get runtimeController(): Controller {
    return this.#controller;
  }

  /** Status writes made. */
  get statusWrites(): number {
    return this.#writer.writes;
  }

  /** Runs until `signal` fires (starting its own informers when it made them). */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#ownFactory) this.#factory.start(signal);
    await this.#controller.run(signal);
  }
}
