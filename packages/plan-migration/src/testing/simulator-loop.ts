//! The loop the simulators share: one runtime Controller over one informer, stepping objects no faster than an interval.

import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
} from '@ctrlkit/core';
import { Controller, SharedInformerFactory } from '@ctrlkit/runtime';
import type { KubeObject } from '@ctrlkit/runtime/client';
import type { ResourceLike } from '@ctrlkit/runtime/informers';
import type { KubeConfig } from '@kubernetes/client-node';

/** Time between two steps of a simulated object, unless told otherwise: 50 ms. */
export const DEFAULT_SIMULATOR_STEP_MS = 50;

/** Options every simulator takes. */
export interface SimulatorOptions {
  /** The cluster. Required. */
  kubeConfig: KubeConfig;
  /** Informers to share (started by their owner). Default: a factory of its own, started by `run`. */
  informerFactory?: SharedInformerFactory;
  /** Minimum time between two steps of one object, ms. Default {@link DEFAULT_SIMULATOR_STEP_MS}. */
  stepMs?: number;
  clock?: Clock;
  logger?: Logger;
}

/** What one step did: `'wait'` when nothing is left to do until the object changes. */
export type StepOutcome = 'stepped' | 'wait';

/**
 * Runs `step` on each object of `resource` whose informer reports it, at most once per
 * `stepMs` per object (later events requeue it for the rest of the interval); a step that
 * changed something is followed by another one an interval later.
 */
export class SimulatorLoop<T extends KubeObject> {
  readonly #factory: SharedInformerFactory;
  readonly #own: boolean;
  readonly #controller: Controller;
  readonly #clock: Clock;
  readonly #stepMs: number;
  readonly #last = new Map<string, number>();

  constructor(
    name: string,
    options: SimulatorOptions,
    resource: ResourceLike,
    step: (object: T) => Promise<StepOutcome>,
  ) {
    if (options?.kubeConfig === undefined)
      throw new InvalidArgumentError('kubeConfig', 'is required');
    const stepMs = options.stepMs ?? DEFAULT_SIMULATOR_STEP_MS;
    if (!Number.isFinite(stepMs) || stepMs < 0) {
      throw new InvalidArgumentError('stepMs', `must be a finite number >= 0, got ${stepMs}`);
    }
    this.#stepMs = stepMs;
    this.#clock = options.clock ?? realClock;
    this.#own = options.informerFactory === undefined;
    this.#factory = options.informerFactory ?? new SharedInformerFactory(options.kubeConfig, {});
    const informer = this.#factory.forResource<T>(resource);
    this.#controller = new Controller({
      name,
      clock: this.#clock,
      logger: options.logger ?? noopLogger,
      reconcile: async (key) => {
        const object = informer.indexer.getByKey(key) as T | undefined;
        if (object === undefined || object.metadata?.deletionTimestamp) {
          this.#last.delete(key);
          return undefined;
        }
        const wait =
          (this.#last.get(key) ?? Number.NEGATIVE_INFINITY) + this.#stepMs - this.#clock.now();
        if (wait > 0) return { requeueAfterMs: wait };
        if ((await step(object)) === 'wait') return undefined;
        this.#last.set(key, this.#clock.now());
        return { requeueAfterMs: Math.max(1, this.#stepMs) };
      },
    });
    this.#controller.watch(informer);
  }

  /** Runs until `signal` fires (starting the informers when it made them). */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#own) this.#factory.start(signal);
    await this.#controller.run(signal);
  }
}
