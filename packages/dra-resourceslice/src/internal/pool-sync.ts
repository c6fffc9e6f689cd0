//! Syncing one pool: delete obsolete slices, update changed ones, create missing ones (upstream's syncPool).

import { type Clock, errorMessage, statusCode } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { TypedRateLimitingInterface } from '@ctrlkit/workqueue';
import type { V1ObjectMeta, V1OwnerReference, V1ResourceSlice } from '@kubernetes/client-node';
import type { KubeClient } from '../adapter.js';
import { type ErrorHandler, isNodeOwner } from '../controller-options.js';
import type { Stats } from '../controller-stats.js';
import type { DriverResources, Owner, Pool, Slice } from '../driver-resources.js';
import { DroppedFieldsError } from '../dropped-fields-error.js';
import {
  ResourceSliceApiError,
  type ResourceSliceApiOperation,
} from '../resource-slice-api-error.js';
import { validatePoolLimits } from '../validate-api-limits.js';
import type { MutationCache } from './mutation-cache.js';
import { type PoolPlan, planPool } from './pool-plan.js';
import { semanticEqual } from './semantic-equal.js';
import { setOptional } from './set-optional.js';
import { copyServerDefaults, copyTaintTimeAdded } from './taint-times.js';
import { validateDriverResources } from './validate-pool.js';
import { wireDevices } from './wire.js';

/** What the pool sync works with; the controller owns each of these. */
export interface PoolSyncOptions {
  driverName: string;
  /** The owner of the slices; a Node's missing UID is filled in on the first sync. */
  owner: Owner | undefined;
  client: KubeClient;
  queue: TypedRateLimitingInterface<string>;
  /** The informer's slices, overlaid with this controller's writes. */
  sliceStore: MutationCache<Wire<V1ResourceSlice>>;
  /** Counted into on every successful write. */
  stats: Stats;
  /** The current desired resources. */
  resources(): DriverResources;
  errorHandler: ErrorHandler;
  clock: Clock;
  /** TTL of the mutation cache in ms: a pool with recent adds is synced again after it. */
  mutationCacheTTLMs: number;
  /** Aborted when the controller stops: every API call in flight is abandoned. */
  signal: AbortSignal;
}

/** Syncs one pool at a time (the controller's single worker calls it). */
export class PoolSyncer {
  readonly #o: PoolSyncOptions;
  readonly #lastAddByPool = new Map<string, number>();

  constructor(options: PoolSyncOptions) {
    this.#o = options;
  }

  /** Makes the cluster's slices of `poolName` what the desired resources say; throws API errors. */
  async syncPool(poolName: string): Promise<void> {
    const start = this.#o.clock.now();
    const slices = this.#o.sliceStore
      .byIndex(poolName)
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const resources = this.#o.resources();
    try {
      validateDriverResources(resources);
    } catch (error) {
      this.#o.errorHandler(error as Error, 'pool validation failed');
      return;
    }
    const pool = resources.pools[poolName];
    if (pool === undefined) {
      if (slices.length > 0) await this.#removeSlices(slices);
      return;
    }
    const nodeName = await this.#nodeName();
    const plan = planPool(poolName, pool, slices, nodeName);

    // Delete obsolete slices first: better to withdraw devices the driver no longer has
    // even when the desired slices cannot be published.
    await this.#removeSlices(plan.obsolete);

    const { matched, changed, bumped, numNew } = plan;
    const writes = [...matched.keys()].some((i) => changed.has(i) || bumped) || numNew > 0;
    if (writes) {
      validatePoolLimits(poolName, pool, { nodeName });
    }
    await this.#updateSlices(poolName, pool, plan);
    const added = await this.#createSlices(poolName, pool, plan, nodeName);
    this.#requeueWhileAddsCached(poolName, start, added);
  }

  /** The owning Node's name ('' when the owner is not a Node), looking up its UID once. */
  async #nodeName(): Promise<string> {
    const owner = this.#o.owner;
    if (!isNodeOwner(owner)) return '';
    if (!owner.uid) {
      try {
        const node = await this.#o.client.readNode(owner.name, { signal: this.#o.signal });
        owner.uid = node.metadata?.uid ?? '';
      } catch (error) {
        throw new ResourceSliceApiError(
          'retrieve node',
          `${JSON.stringify(owner.name)}: ${errorMessage(error)}`,
          statusCode(error),
          error,
        );
      }
    }
    return owner.name;
  }

  /** Updates each matched slice that changed (all of them when the generation went up). */
  async #updateSlices(poolName: string, pool: Pool, plan: PoolPlan): Promise<void> {
    const desiredSlices = pool.slices ?? [];
    for (const [i, existing] of [...plan.matched].sort((a, b) => a[0] - b[0])) {
      if (!plan.changed.has(i) && !plan.bumped) continue;
      const desired = desiredSlices[i] as Slice;
      const slice: Wire<V1ResourceSlice> = structuredClone(existing);
      const spec = slice.spec as NonNullable<Wire<V1ResourceSlice>['spec']>;
      spec.pool = { ...plan.desiredPool };
      setOptional(spec, 'nodeSelector', pool.nodeSelector);
      setOptional(spec, 'allNodes', plan.desiredAllNodes ? true : undefined);
      setOptional(spec, 'sharedCounters', desired.sharedCounters);
      setOptional(spec, 'perDeviceNodeSelection', desired.perDeviceNodeSelection);
      // A slice of counter sets has no devices: leave the field out, as Go's nil (the
      // apiserver refuses `devices: []` beside sharedCounters).
      const devices = wireDevices(desired);
      setOptional(
        spec,
        'devices',
        devices && copyTaintTimeAdded(existing.spec?.devices ?? [], devices),
      );
      let actual: Wire<V1ResourceSlice>;
      try {
        actual = await this.#o.client.updateResourceSlice(slice, { signal: this.#o.signal });
      } catch (error) {
        throw apiError('update resource slice', error);
      }
      this.#o.stats.numUpdates++;
      this.#sliceStored('update ResourceSlice', poolName, pool, i, slice, actual);
    }
  }

  /** Creates each desired slice that matched none; true when any was created. */
  async #createSlices(
    poolName: string,
    pool: Pool,
    plan: PoolPlan,
    nodeName: string,
  ): Promise<boolean> {
    const desiredSlices = pool.slices ?? [];
    let added = false;
    for (let i = 0; i < desiredSlices.length; i++) {
      if (plan.matched.has(i)) continue;
      const slice = this.#newSlice(pool, desiredSlices[i] as Slice, plan, nodeName);
      let actual: Wire<V1ResourceSlice>;
      try {
        actual = await this.#o.client.createResourceSlice(slice, { signal: this.#o.signal });
      } catch (error) {
        throw apiError('create resource slice', error);
      }
      this.#o.stats.numCreates++;
      added = true;
      this.#sliceStored('create ResourceSlice', poolName, pool, i, slice, actual);
    }
    return added;
  }

  /** A new slice of the pool for `desired`, owned by the owner and named after it. */
  #newSlice(pool: Pool, desired: Slice, plan: PoolPlan, nodeName: string): Wire<V1ResourceSlice> {
    const { driverName, owner } = this.#o;
    const metadata: Wire<V1ObjectMeta> = {
      generateName: owner ? `${owner.name}-${driverName}-` : `${driverName}-`,
    };
    if (owner) {
      const ref: Wire<V1OwnerReference> = {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.name,
        uid: owner.uid ?? '',
        controller: true,
      };
      metadata.ownerReferences = [ref];
    }
    const spec: NonNullable<Wire<V1ResourceSlice>['spec']> = {
      driver: driverName,
      pool: { ...plan.desiredPool },
    };
    setOptional(spec, 'nodeName', nodeName === '' ? undefined : nodeName);
    setOptional(spec, 'nodeSelector', pool.nodeSelector);
    setOptional(spec, 'allNodes', plan.desiredAllNodes ? true : undefined);
    setOptional(spec, 'devices', wireDevices(desired));
    setOptional(spec, 'sharedCounters', desired.sharedCounters);
    setOptional(spec, 'perDeviceNodeSelection', desired.perDeviceNodeSelection);
    return { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata, spec };
  }

  /**
   * Adds in the mutation cache are not safe: while the pool's last add is cached, the pool
   * is synced again once it expires.
   */
  #requeueWhileAddsCached(poolName: string, start: number, added: boolean): void {
    const { clock, mutationCacheTTLMs, queue } = this.#o;
    const now = clock.now();
    if (added) {
      this.#lastAddByPool.set(poolName, now);
    } else {
      const lastAdd = this.#lastAddByPool.get(poolName);
      if (lastAdd !== undefined && start > lastAdd + mutationCacheTTLMs) {
        this.#lastAddByPool.delete(poolName);
      }
    }
    const lastAdd = this.#lastAddByPool.get(poolName);
    if (lastAdd !== undefined) {
      queue.addAfter(poolName, lastAdd + mutationCacheTTLMs - now);
    }
  }

  async #removeSlices(slices: readonly Wire<V1ResourceSlice>[]): Promise<void> {
    for (const slice of slices) {
      try {
        await this.#o.client.deleteResourceSlice(
          slice.metadata?.name ?? '',
          { uid: slice.metadata?.uid, resourceVersion: slice.metadata?.resourceVersion },
          { signal: this.#o.signal },
        );
        this.#o.stats.numDeletes++;
      } catch (error) {
        if (statusCode(error) === 404) continue;
        throw new ResourceSliceApiError(
          'delete resource slice',
          errorMessage(error),
          statusCode(error),
          error,
        );
      }
    }
  }

  /** After a create or update: cache the result, adopt server-set taint times and dropped fields. */
  #sliceStored(
    message: string,
    poolName: string,
    pool: Pool,
    sliceIndex: number,
    desiredSlice: Wire<V1ResourceSlice>,
    actualSlice: Wire<V1ResourceSlice>,
  ): void {
    this.#o.sliceStore.mutation(actualSlice);
    const target = pool.slices[sliceIndex] as Slice;
    if (copyServerDefaults(desiredSlice, actualSlice)) {
      target.devices = structuredClone(actualSlice.spec?.devices ?? []);
    }
    const want = desiredSlice.spec;
    const got = actualSlice.spec;
    if (
      (want?.perDeviceNodeSelection ?? null) !== (got?.perDeviceNodeSelection ?? null) ||
      !semanticEqual(want?.sharedCounters, got?.sharedCounters) ||
      !semanticEqual(want?.devices, got?.devices)
    ) {
      setOptional(target, 'perDeviceNodeSelection', got?.perDeviceNodeSelection);
      setOptional(target, 'sharedCounters', structuredClone(got?.sharedCounters));
      setOptional(target, 'devices', structuredClone(got?.devices));
      this.#o.errorHandler(
        new DroppedFieldsError(
          poolName,
          sliceIndex,
          structuredClone(desiredSlice),
          structuredClone(actualSlice),
        ),
        message,
      );
    }
  }
}

/** The message of a failed call (the apiserver's Status message), for texts like Go's. */
function apiError(operation: ResourceSliceApiOperation, error: unknown): ResourceSliceApiError {
  return new ResourceSliceApiError(operation, errorMessage(error), statusCode(error), error);
}
