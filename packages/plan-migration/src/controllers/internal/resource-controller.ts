//! What every resource controller is: a runtime Controller over one forklift kind, its informers, and a status writer.

import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
} from '@ctrlkit/core';
import { Controller, type ReconcileResult, SharedInformerFactory } from '@ctrlkit/runtime';
import { type Client, toClient } from '@ctrlkit/runtime/client';
import { type ApiGroup, apiGroupOption, type PLURALS } from '../../crds.js';
import type { ResourceControllerOptions } from '../resource-controller-options.js';
import { ConditionStatusWriter } from './condition-status.js';
import { forkliftResource } from './resources.js';

/**
 * The shared part of the Provider, map, Hook and Migration controllers: the informer
 * factory (given, or its own started by `run`), a {@link ConditionStatusWriter} for the
 * kind, and a runtime `Controller` named `name` that watches the kind and calls
 * `reconcile`. Subclasses add watches in their constructor.
 */
export abstract class ResourceController {
  /** The runtime's client every request of the controller goes through. */
  protected readonly client: Client;
  protected readonly factory: SharedInformerFactory;
  protected readonly writer: ConditionStatusWriter;
  protected readonly controller: Controller;
  protected readonly clock: Clock;
  protected readonly log: Logger;
  /** The API group of the forklift resources. */
  protected readonly group: ApiGroup;
  readonly #ownFactory: boolean;

  protected constructor(
    kind: keyof typeof PLURALS,
    name: string,
    options: ResourceControllerOptions,
  ) {
    const client = options?.client ?? options?.kubeConfig;
    if (client === undefined)
      throw new InvalidArgumentError('client', 'is required (the runtime client, or kubeConfig)');
    this.client = toClient(client);
    this.clock = options.clock ?? realClock;
    this.log = options.logger ?? noopLogger;
    this.group = apiGroupOption('apiGroup', options.apiGroup);
    this.#ownFactory = options.informerFactory === undefined;
    this.factory = options.informerFactory ?? new SharedInformerFactory(this.client, {});
    this.writer = new ConditionStatusWriter(this.client, kind, this.clock, this.group);
    this.controller = new Controller({
      name,
      reconcile: (key, signal) => this.reconcile(key, signal),
      clock: this.clock,
      logger: this.log,
    });
    this.controller.watch(this.factory.forResource(forkliftResource(kind, this.group)));
  }

  /** Reconciles the object of `key` (`namespace/name`). */
  protected abstract reconcile(
    key: string,
    signal: AbortSignal,
  ): Promise<ReconcileResult | undefined>;

  /** The runtime controller, to add to a `Manager` instead of calling `run`. */
  get runtimeController(): Controller {
    return this.controller;
  }

  /** Status writes made. */
  get statusWrites(): number {
    return this.writer.writes;
  }

  /** Runs until `signal` fires (starting its own informers when it made them). */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#ownFactory) this.factory.start(signal);
    await this.controller.run(signal);
  }
}
