//! The sharder of a ring: one leader per ring assigns objects to shards by consistent hashing and moves them with the drain handshake.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Client, KubeObject, Wire } from '@ctrlkit/client';
import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
} from '@ctrlkit/core';
import type { MetricsProvider } from '@ctrlkit/workqueue';
import type { V1Lease } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { Controller } from '../controller/controller.js';
import { objectKey } from '../controller/keys.js';
import { SharedInformerFactory } from '../informers/shared-informer-factory.js';
import { HashRing } from './hash-ring.js';
import { holdLease } from './lease-holder.js';
import { RING_LABEL } from './ring-labels.js';
import { RingMembership } from './ring-membership.js';
import {
  type ResolvedRing,
  type RingOptions,
  resolveRing,
  ringResourcesAnnotation,
} from './ring-options.js';
import { RingState } from './ring-state.js';
import { PrometheusShardingMetrics } from './sharding-metrics.js';

/** How many objects a sharder labels at once by default. */
export const DEFAULT_MAX_CONCURRENT_ASSIGNMENTS = 16;

/** What a sharder uses of its process's `Manager` (a `Manager` is one). */
export interface SharderManager {
  readonly client: Client;
  readonly registry?: Registry;
  readonly metricsProvider?: MetricsProvider;
}

/** Options of a {@link Sharder}. */
export interface SharderOptions extends RingOptions {
  /** The process's manager: its client, and its registry for the sharding metrics. Required. */
  manager: SharderManager;
  /** Shard only objects of this namespace. Default: all namespaces. */
  namespace?: string;
  /** This candidate's identity for the sharder's Lease (`ctrlkit-sharder-<ring>`). Default: `<hostname>_<random UUID>`. */
  identity?: string;
  /** Virtual nodes per shard on the hash ring. Default `DEFAULT_TOKENS_PER_SHARD` (100). */
  tokensPerShard?: number;
  /** How many objects are labelled at once. Default {@link DEFAULT_MAX_CONCURRENT_ASSIGNMENTS}. */
  maxConcurrentAssignments?: number;
  clock?: Clock;
  logger?: Logger;
}

/** The name of a ring's sharder Lease (it carries no ring label: it is not a shard). */
export function sharderLeaseName(ring: string): string {
  return `ctrlkit-sharder-${ring}`;
}

/**
 * The sharder of one ring (the sharding add-on's sharder, without its webhook): add it to the
 * `Manager` of every replica (or of a process of its own); one candidate leads per ring (Lease
 * `ctrlkit-sharder-<ring>`), and the leader:
 * - watches the ring's shard Leases: the ring is the shards whose Lease is held and renewed;
 * - watches the ring's objects (metadata only) and gives each one without a shard label the
 *   shard that consistent hashing of its key ({@link shardKey}) picks, so new objects are
 *   labelled by this watch, typically within tens of ms of their creation;
 * - when the ring changes, moves objects whose shard is no longer the picked one: from a
 *   live shard with the drain handshake (drain label; the shard removes both labels once it
 *   has stopped reconciling the object; then the new shard is written), from a dead shard
 *   (Lease released or lapsed), a shard the ring does not know (a label edited by hand), or
 *   for a controlled resource, at once.
 *
 * Guarantees: every write is conditional on the object's resourceVersion, so a stale cache
 * loses the race instead of overwriting; an object is never given a new shard while its old
 * shard is alive and has not acknowledged the drain; with no live shard, objects wait,
 * keeping their label. Shards whose Lease names other resources (a second ring of the same
 * name) are left out of the ring and logged, so no object goes to a shard that cannot see it.
 */
export class Sharder {
  /** The runnable's name: `sharder <ring>`. */
  readonly name: string;
  /** Every replica campaigns: not only the manager's leader. */
  readonly needLeaderElection = false;
  /** The sharder's metrics (on the manager's registry). */
  readonly metrics: PrometheusShardingMetrics;
  readonly #ring: ResolvedRing;
  readonly #client: Client;
  readonly #metricsProvider: MetricsProvider | undefined;
  readonly #namespace: string | undefined;
  readonly #identity: string;
  readonly #tokensPerShard: number | undefined;
  readonly #workers: number;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #state: RingState | undefined;
  #started = false;

  /** @throws InvalidArgumentError naming the option at fault. */
  constructor(options: SharderOptions) {
    this.#ring = resolveRing(options);
    const manager = options.manager;
    if (typeof manager?.client?.patch !== 'function') {
      throw new InvalidArgumentError('manager', 'expected a Manager (its client)');
    }
    this.#client = manager.client;
    this.#metricsProvider = manager.metricsProvider;
    this.metrics = new PrometheusShardingMetrics(manager.registry ?? new Registry());
    if (options.namespace !== undefined && typeof options.namespace !== 'string') {
      throw new InvalidArgumentError('namespace', 'expected a string');
    }
    this.#namespace = options.namespace || undefined;
    this.#identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    if (typeof this.#identity !== 'string' || this.#identity === '') {
      throw new InvalidArgumentError('identity', 'expected a non-empty string');
    }
    this.#tokensPerShard = options.tokensPerShard;
    new HashRing([], options.tokensPerShard); // checks it
    const workers = options.maxConcurrentAssignments ?? DEFAULT_MAX_CONCURRENT_ASSIGNMENTS;
    if (!Number.isInteger(workers) || workers < 1) {
      throw new InvalidArgumentError(
        'maxConcurrentAssignments',
        `expected an integer >= 1, got ${String(workers)}`,
      );
    }
    this.#workers = workers;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
    this.name = `sharder ${this.#ring.ring}`;
  }

  /** True while this candidate leads the ring's sharding. */
  isLeader(): boolean {
    return this.#state !== undefined;
  }

  /** The live shards of the ring as the leading sharder sees them (empty when not leading). */
  members(): readonly string[] {
    return this.#state?.members() ?? [];
  }

  /** Campaigns for the ring's sharder Lease and shards while it leads, until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new InvalidArgumentError('start', 'a sharder starts once');
    this.#started = true;
    const ring = this.#ring;
    while (!signal.aborted) {
      const outcome = await holdLease(
        {
          client: this.#client,
          namespace: ring.leaseNamespace,
          name: sharderLeaseName(ring.ring),
          identity: this.#identity,
          leaseDurationMs: ring.leaseDurationMs,
          renewDeadlineMs: ring.renewDeadlineMs,
          retryPeriodMs: ring.retryPeriodMs,
          clock: this.#clock,
          logger: this.#logger,
          work: (leading) => this.#lead(leading),
        },
        signal,
      );
      if (outcome === 'lost') this.#logger.warn({ ring: ring.ring }, 'sharder lost its Lease');
    }
  }

  /** Shards the ring until `signal` aborts. */
  async #lead(signal: AbortSignal): Promise<void> {
    const ring = this.#ring;
    this.#logger.info({ ring: ring.ring }, 'leading the ring');
    const factory = new SharedInformerFactory(this.#client, {
      clock: this.#clock,
      logger: this.#logger,
      ...(this.#namespace !== undefined && { namespace: this.#namespace }),
    });
    const leases = factory.forResource<V1Lease>('coordination.k8s.io/v1/leases', {
      namespace: ring.leaseNamespace,
      labelSelector: `${RING_LABEL}=${ring.ring}`,
    });
    const controller = new Controller({
      name: `sharder-${ring.ring}`,
      reconcile: (key) => state.assign(key),
      maxConcurrentReconciles: this.#workers,
      clock: this.#clock,
      logger: this.#logger,
      ...(this.#metricsProvider !== undefined && { metricsProvider: this.#metricsProvider }),
    });
    const state = new RingState({
      ring,
      client: this.#client,
      membership: new RingMembership(),
      accept: ringResourcesAnnotation(ring),
      tokensPerShard: this.#tokensPerShard,
      metrics: this.metrics,
      clock: this.#clock,
      logger: this.#logger,
      enqueue: (key) => controller.enqueue(key),
      targets: [
        ...ring.resources.map((resource) => ({ resource, controlled: false })),
        ...ring.controlledResources.map((resource) => ({ resource, controlled: true })),
      ].map(({ resource, controlled }) => ({
        resource,
        controlled,
        informer: factory.forResource<KubeObject>(resource, { metadataOnly: true }),
      })),
    });
    state.targets.forEach((target, index) => {
      controller.watch<Wire<KubeObject>>(target.informer, {
        mapToKeys: (obj) => [`${index}|${objectKey(obj)}`],
      });
      target.informer.addEventHandler({
        onAdd: (obj: Wire<KubeObject>, initial) => {
          if (!initial) state.seen(`${index}|${objectKey(obj)}`, obj);
        },
      });
    });
    leases.addEventHandler({
      onAdd: (lease) => state.observeLease(lease),
      onUpdate: (_old, lease) => state.observeLease(lease),
      onDelete: (lease) => {
        const name =
          'key' in lease && typeof lease.key === 'string'
            ? lease.key.split('/').pop()
            : (lease as Wire<V1Lease>).metadata?.name;
        state.forgetLease(name ?? '');
      },
    });
    factory.start(signal);
    this.#state = state;
    // Leases lapse without an event: look again every retry period (at most every second).
    const period = Math.min(1_000, ring.retryPeriodMs);
    const clock = this.#clock;
    let timer = this.#clock.setTimer(function tick() {
      state.refresh();
      timer = clock.setTimer(tick, period);
    }, period);
    try {
      if (!(await leases.whenSynced(signal))) return;
      state.refresh();
      await controller.run(signal);
    } finally {
      timer.cancel();
      this.#state = undefined;
      await factory.shutdown();
      this.#logger.info({ ring: ring.ring }, 'stopped leading the ring');
    }
  }
}
