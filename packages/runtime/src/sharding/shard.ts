//! A replica's membership in a ring: its shard Lease, the label-selected informers of its share, and the sharded controllers it runs while a member.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type Client,
  formatGroupVersionResource,
  type KubeObject,
  type ResourceLike,
  toGroupVersionResource,
  type Wire,
} from '@ctrlkit/client';
import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
  sleep,
} from '@ctrlkit/core';
import type { MetricsProvider } from '@ctrlkit/workqueue';
import type { V1Lease } from '@kubernetes/client-node';
import { Controller, type WatchOptions } from '../controller/controller.js';
import type { ControllerOptions } from '../controller/controller-options.js';
import { objectKey } from '../controller/keys.js';
import type { SharedIndexInformer } from '../informers/shared-informer.js';
import type { SharedInformerFactory } from '../informers/shared-informer-factory.js';
import type { ReconcileMetrics } from '../metrics/reconcile-metrics.js';
import { holdLease } from './lease-holder.js';
import { drainLabel, RING_LABEL, RING_RESOURCES_ANNOTATION, shardLabel } from './ring-labels.js';
import { readShardLease } from './ring-membership.js';
import {
  type ResolvedRing,
  type RingOptions,
  resolveRing,
  ringResourcesAnnotation,
} from './ring-options.js';
import { guardReconciler } from './shard-guard.js';
import { checkRingAgreement, checkShardPermissions } from './shard-preflight.js';
import { ShardingError } from './sharding-error.js';

/** How long a graceful stop waits by default for the sharder to move this shard's objects: 10 s. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
/** How often a stopping shard checks whether its objects have moved, in ms. */
const DRAIN_POLL_MS = 100;

/** What a shard uses of its process's `Manager` (a `Manager` is one). */
export interface ShardManager {
  readonly client: Client;
  readonly informerFactory: SharedInformerFactory;
  readonly metricsProvider?: MetricsProvider;
  readonly reconcileMetrics?: ReconcileMetrics;
}

/** Options of a {@link Shard}. */
export interface ShardOptions extends RingOptions {
  /** The process's manager: its client, informer factory and metrics. Required. */
  manager: ShardManager;
  /**
   * The shard's name: its Lease's name and holder, and the value of the shard label on its
   * objects; a DNS-1123 subdomain. Default: `<hostname>-<random 8 hex>`, lower-cased (a pod
   * name from a StatefulSet keeps it across restarts, which moves fewer objects).
   */
  name?: string;
  /**
   * How long a graceful stop waits, after releasing the Lease, for the sharder to move every
   * object labelled with this shard, in ms; `0` not to wait. Default {@link DEFAULT_DRAIN_TIMEOUT_MS}.
   */
  drainTimeoutMs?: number;
  /** The clock of the Lease and the drain wait. Default: the real clock. */
  clock?: Clock;
  /** Where to log. Default: nowhere. */
  logger?: Logger;
}

/** Options of {@link Shard.controller}: a controller's, and the ring resource it reconciles. */
export interface ShardedControllerOptions extends ControllerOptions {
  /** The resource the controller reconciles: one of the ring's `resources`. Required. */
  resource: ResourceLike;
  /** How events of the shard's informer of `resource` become keys. Default: the object's key. */
  watch?: WatchOptions<Wire<KubeObject>>;
}

/** `<hostname>-<8 hex>`, lower-cased, with what a label value cannot hold replaced by `-`. */
function defaultShardName(): string {
  const host = hostname()
    .toLowerCase()
    .replace(/[^-a-z0-9.]/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
    .slice(0, 54);
  return `${host || 'shard'}-${randomUUID().slice(0, 8)}`;
}

const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/**
 * One replica's place in a ring (the sharding add-on's shard Lease and filtered cache).
 * Add it to the process's `Manager` (it is a `Runnable` of `@ctrlkit/runtime/manager` every
 * replica runs); it:
 * 1. checks that it may read and write Leases (`LeaseForbidden`) and that live replicas of
 *    the ring shard the same resources (`RingConflict`);
 * 2. holds its shard Lease (`<leaseNamespace>/<name>`, labelled `ctrlkit.io/ring=<ring>`,
 *    holder = its name), renewed as a leader Lease is;
 * 3. while it holds it, runs its sharded controllers ({@link Shard.controller});
 * 4. on a graceful stop, stops them (in-flight reconciles finish), releases the Lease so the
 *    sharder moves its objects at once, and waits up to `drainTimeoutMs` for that.
 *
 * Guarantees:
 * - A sharded controller reconciles only objects whose shard label names this shard, as its
 *   cache holds only those (`shard.ctrlkit.io/<ring>=<name>`): memory falls with replicas.
 * - An object with the drain label is not reconciled: the shard acknowledges the drain by
 *   removing both labels (a JSON patch that first tests them, so a stale cache cannot remove
 *   another shard's label), after any reconcile of it in progress has finished.
 * - A shard that cannot renew its Lease stops its controllers before the Lease expires
 *   (renew deadline shorter than the lease duration) and `start` rejects with `ShardLeaseLost`;
 *   once it stops, keys still queued are dropped, not reconciled, so only the reconciles in
 *   progress finish (they must end within `leaseDurationMs - renewDeadlineMs - retryPeriodMs`).
 *
 * Caveats: a reconcile runs only while its object is in this shard's cache, so the reconciler
 * never sees a deleted object (it may have moved): clean up with a finalizer. A paused
 * process can outlive its Lease, as with any leader election.
 */
export class Shard {
  /** The runnable's name: `shard <ring>/<name>`. */
  readonly name: string;
  /** The shard's name (its Lease, and its objects' shard label). */
  readonly shardName: string;
  /** Every replica runs its shard: not only the leader. */
  readonly needLeaderElection = false;
  /** The label selector of this shard's informers: `shard.ctrlkit.io/<ring>=<name>`. */
  readonly labelSelector: string;
  readonly #ring: ResolvedRing;
  readonly #manager: ShardManager;
  readonly #drainTimeoutMs: number;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #controllers: Controller[] = [];
  #member = false;
  #started = false;

  /** @throws InvalidArgumentError naming the option at fault. */
  constructor(options: ShardOptions) {
    this.#ring = resolveRing(options);
    const manager = options.manager;
    if (typeof manager?.informerFactory?.forResource !== 'function') {
      throw new InvalidArgumentError('manager', 'expected a Manager (client and informerFactory)');
    }
    this.#manager = manager;
    const name = options.name ?? defaultShardName();
    if (typeof name !== 'string' || !dnsSubdomain.test(name) || name.length > 63) {
      throw new InvalidArgumentError(
        'name',
        `expected a DNS-1123 name of at most 63 characters (it is a label value), got ${JSON.stringify(name)}`,
      );
    }
    const drain = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
    if (typeof drain !== 'number' || !(drain >= 0)) {
      throw new InvalidArgumentError('drainTimeoutMs', `expected ms >= 0, got ${String(drain)}`);
    }
    this.#drainTimeoutMs = drain;
    this.shardName = name;
    this.name = `shard ${this.#ring.ring}/${name}`;
    this.labelSelector = `${shardLabel(this.#ring.ring)}=${name}`;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
  }

  /** True while this replica holds its shard Lease (and runs its controllers). */
  isMember(): boolean {
    return this.#member;
  }

  /**
   * The manager's shared informer of `resource` restricted to this shard's objects (one of
   * the ring's `resources` or `controlledResources`).
   */
  informer<T extends KubeObject = KubeObject>(
    resource: ResourceLike,
  ): SharedIndexInformer<Wire<T>> {
    const normalised = formatGroupVersionResource(toGroupVersionResource(resource));
    const known = [...this.#ring.resources, ...this.#ring.controlledResources];
    if (!known.includes(normalised)) {
      throw new InvalidArgumentError(
        'resource',
        `${normalised} is not a resource of ring ${this.#ring.ring} (${known.join(', ')})`,
      );
    }
    return this.#manager.informerFactory.forResource<T>(normalised, {
      labelSelector: this.labelSelector,
    });
  }

  /**
   * A sharded controller of `options.resource`: it watches this shard's informer of it, runs
   * while this replica is a member, acknowledges drains instead of reconciling, and reports
   * to the manager's metrics. Add further watches with `.watch`; do not add it to the manager.
   */
  controller(options: ShardedControllerOptions): Controller {
    if (this.#started) throw new InvalidArgumentError('controller', 'called after start()');
    const { resource, watch, reconcile, ...controllerOptions } = options ?? {};
    if (typeof reconcile !== 'function') {
      throw new InvalidArgumentError('reconcile', 'expected a function');
    }
    if (
      this.#ring.controlledResources.includes(
        formatGroupVersionResource(toGroupVersionResource(resource)),
      )
    ) {
      throw new InvalidArgumentError(
        'resource',
        "a controlled resource is not reconciled: name one of the ring's resources",
      );
    }
    const informer = this.informer(resource);
    const controller = new Controller({
      ...controllerOptions,
      reconcile: guardReconciler({
        client: this.#manager.client,
        ring: this.#ring.ring,
        shardName: this.shardName,
        informer,
        resource,
        reconcile,
        logger: this.#logger,
      }),
    });
    controller.useMetrics({
      metricsProvider: this.#manager.metricsProvider,
      reconcileMetrics: this.#manager.reconcileMetrics,
    });
    controller.watch(informer, watch);
    // Drains are seen whatever the watch's predicates let through.
    const drain = drainLabel(this.#ring.ring);
    const enqueueDrained = (obj: Wire<KubeObject>) => {
      if (obj.metadata?.labels?.[drain] !== undefined) controller.enqueue(objectKey(obj));
    };
    informer.addEventHandler({
      onAdd: enqueueDrained,
      onUpdate: (_old, obj) => enqueueDrained(obj),
    });
    this.#controllers.push(controller);
    return controller;
  }

  /** Joins the ring and runs the sharded controllers until `signal` aborts (see the class). */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new InvalidArgumentError('start', 'a shard starts once');
    this.#started = true;
    const ring = this.#ring;
    await checkShardPermissions(this.#manager.client, ring, this.shardName, signal);
    await checkRingAgreement(this.#manager.client, ring, this.shardName, signal);
    const outcome = await holdLease(
      {
        client: this.#manager.client,
        namespace: ring.leaseNamespace,
        name: this.shardName,
        identity: this.shardName,
        labels: { [RING_LABEL]: ring.ring },
        annotations: { [RING_RESOURCES_ANNOTATION]: ringResourcesAnnotation(ring) },
        leaseDurationMs: ring.leaseDurationMs,
        renewDeadlineMs: ring.renewDeadlineMs,
        retryPeriodMs: ring.retryPeriodMs,
        clock: this.#clock,
        logger: this.#logger,
        work: async (member) => {
          this.#member = true;
          this.#logger.info({ ring: ring.ring, shard: this.shardName }, 'joined the ring');
          try {
            await Promise.all(this.#controllers.map((controller) => controller.run(member)));
          } finally {
            this.#member = false;
          }
        },
      },
      signal,
    );
    if (outcome === 'lost') {
      throw new ShardingError(
        'ShardLeaseLost',
        ring.ring,
        `shard ${this.shardName} of ring ${ring.ring} could not renew its Lease ${ring.leaseNamespace}/${this.shardName}: stopped reconciling`,
      );
    }
    await this.#waitMoved();
  }

  /**
   * After releasing the Lease: waits until this shard's caches hold no object of the ring
   * (the sharder moved them all), or no other member is left to take them, or `drainTimeoutMs`.
   */
  async #waitMoved(): Promise<void> {
    if (this.#drainTimeoutMs === 0) return;
    const deadline = this.#clock.now() + this.#drainTimeoutMs;
    for (;;) {
      const left = this.#ring.resources.reduce(
        (sum, resource) => sum + this.informer(resource).indexer.listKeys().length,
        0,
      );
      if (left === 0) return;
      if (!(await this.#othersAlive())) {
        this.#logger.warn(
          { ring: this.#ring.ring, shard: this.shardName, left },
          "no other member of the ring to take this shard's objects: they wait for one",
        );
        return;
      }
      if (this.#clock.now() >= deadline) {
        this.#logger.warn(
          { ring: this.#ring.ring, shard: this.shardName, left },
          'objects still labelled with this shard after drainTimeoutMs: is the sharder running?',
        );
        return;
      }
      await sleep(this.#clock, DRAIN_POLL_MS, new AbortController().signal);
    }
  }

  /** True while another shard of the ring (same resources) holds a Lease renewed within its duration (wall clock). */
  async #othersAlive(): Promise<boolean> {
    const ring = this.#ring;
    try {
      const leases = await this.#manager.client.list<V1Lease>('coordination.k8s.io/v1/leases', {
        namespace: ring.leaseNamespace,
        labelSelector: `${RING_LABEL}=${ring.ring}`,
      });
      const now = Date.now();
      return leases.items
        .map(readShardLease)
        .some(
          (record) =>
            record.shard !== this.shardName &&
            record.holder === record.shard &&
            record.resources === ringResourcesAnnotation(ring) &&
            now - (record.renewTime?.getTime() ?? 0) < record.leaseDurationMs,
        );
    } catch (error) {
      this.#logger.warn({ err: error }, "cannot list the ring's Leases");
      return false;
    }
  }
}
