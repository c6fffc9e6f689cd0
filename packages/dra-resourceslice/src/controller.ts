//! The ResourceSlice controller: keeps a driver's desired pools and the cluster's slices in step.

import {
  type Clock,
  errorMessage,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
  statusCode,
} from '@ctrlkit/core';
import { DeletedFinalStateUnknown, newListWatch, SharedIndexInformer } from '@ctrlkit/runtime';
import {
  defaultControllerRateLimiter,
  newTypedRateLimitingQueue,
  runWorkers,
  type TypedRateLimitingInterface,
} from '@ctrlkit/workqueue';
import type {
  KubeConfig,
  V1Device,
  V1ObjectMeta,
  V1OwnerReference,
  V1ResourcePool,
  V1ResourceSlice,
} from '@kubernetes/client-node';
import { devicesDeepEqual } from './devices-deep-equal.js';
import {
  type DriverResources,
  deepCopyDriverResources,
  type Owner,
  type Pool,
  roundTaintTimeAdded,
  type Slice,
} from './driver-resources.js';
import { DroppedFieldsError } from './dropped-fields-error.js';
import { MutationCache } from './internal/mutation-cache.js';
import { semanticEqual } from './internal/semantic-equal.js';
import { validateDriverResources } from './internal/validate-pool.js';
import { toWireResources } from './internal/wire.js';
import { type KubeClient, newKubeClient } from './kube-client.js';
import {
  ResourceSliceApiError,
  type ResourceSliceApiOperation,
} from './resource-slice-api-error.js';
import { isDnsSubdomain, validatePoolLimits } from './validate-api-limits.js';

/**
 * How long slices this controller created or updated are trusted over the informer: 1 min.
 * Adds in that cache are not safe (a slice deleted by someone else would linger), so a
 * pool is synced again once its adds have expired.
 */
export const DEFAULT_MUTATION_CACHE_TTL_MS = 60_000;
/**
 * How long after an informer event a pool is synced: 30 s. Long enough for the informer
 * cache to be current (fewer redundant deletes), short enough that a human mistake is
 * fixed while the human waits.
 */
export const DEFAULT_SYNC_DELAY_MS = 30_000;
/** The name of the default queue (and of its metrics): `node_resource_slices`. */
export const QUEUE_NAME = 'node_resource_slices';
/** The informer index of slices by `spec.pool.name`. */
export const POOL_NAME_INDEX = 'poolName';

/** Counts of successful API calls. */
export interface Stats {
  /** ResourceSlices created. */
  numCreates: number;
  /** ResourceSlices updated. */
  numUpdates: number;
  /** ResourceSlices deleted (a delete answered 404 is not counted). */
  numDeletes: number;
}

/** Called with each problem; `message` says what failed, as upstream's `msg`. */
export type ErrorHandler = (error: Error, message: string) => void;

/** Options of {@link startController}. */
export interface Options {
  /** The DRA driver's name, a DNS subdomain of at most 63 characters. Required. */
  driverName: string;
  /** How to reach the cluster: a {@link KubeClient}, or a KubeConfig to make one from. Required. */
  kubeClient: KubeClient | KubeConfig;
  /**
   * The cluster-scoped object listed as controller owner of the slices. A Node also sets
   * `spec.nodeName` and restricts the watch to it; its UID is looked up when empty. Without
   * an owner there is no garbage collection: a driver must delete its slices on uninstall.
   * Default: none.
   */
  owner?: Owner;
  /** The initial desired resources. Default: none (`{ pools: {} }`). */
  resources?: DriverResources;
  /** The work queue of pool names. Default: a rate-limited queue named {@link QUEUE_NAME}. */
  queue?: TypedRateLimitingInterface<string>;
  /** TTL of the mutation cache, in ms; 0 allowed. Default {@link DEFAULT_MUTATION_CACHE_TTL_MS}. */
  mutationCacheTTL?: number;
  /** Delay from an informer event to the pool's sync, in ms; 0 allowed. Default {@link DEFAULT_SYNC_DELAY_MS}. */
  syncDelay?: number;
  /**
   * Called for every problem; the controller retries API errors after it returns. A
   * {@link DroppedFieldsError} means the apiserver dropped fields of disabled features.
   * Default: log with `logger.error`.
   */
  errorHandler?: ErrorHandler;
  /** Stops the controller like `stop()`; also aborts the wait for the informer. Default: none. */
  signal?: AbortSignal;
  /** The clock of delays and TTLs. Default: the real clock. */
  clock?: Clock;
  /** Where progress and (by default) errors go. Default: nowhere. */
  logger?: Logger;
}

const optionKeys = new Set([
  'driverName',
  'kubeClient',
  'owner',
  'resources',
  'queue',
  'mutationCacheTTL',
  'syncDelay',
  'errorHandler',
  'signal',
  'clock',
  'logger',
]);

function isNodeOwner(owner: Owner | undefined): owner is Owner {
  return owner !== undefined && owner.apiVersion === 'v1' && owner.kind === 'Node';
}

function duration(
  options: Options,
  field: 'mutationCacheTTL' | 'syncDelay',
  fallback: number,
): number {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(
      field,
      `must be a finite number of ms >= 0, got ${String(value)}`,
    );
  }
  return value;
}

function checkOptions(options: Options): void {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!optionKeys.has(key)) throw new InvalidArgumentError(key, 'unknown option');
  }
  if (options.kubeClient === undefined || options.kubeClient === null) {
    throw new InvalidArgumentError('kubeClient', 'KubeClient is nil');
  }
  if (options.driverName === undefined || options.driverName === '') {
    throw new InvalidArgumentError('driverName', 'DRA driver name is empty');
  }
  if (
    typeof options.driverName !== 'string' ||
    options.driverName.length > 63 ||
    !isDnsSubdomain(options.driverName)
  ) {
    throw new InvalidArgumentError(
      'driverName',
      `must be a DNS subdomain of at most 63 characters, got ${JSON.stringify(options.driverName)}`,
    );
  }
  const { owner } = options;
  if (owner !== undefined) {
    for (const field of ['apiVersion', 'kind', 'name'] as const) {
      if (typeof owner?.[field] !== 'string' || owner[field] === '') {
        throw new InvalidArgumentError(`owner.${field}`, 'must be a non-empty string');
      }
    }
    if (owner.uid !== undefined && typeof owner.uid !== 'string') {
      throw new InvalidArgumentError('owner.uid', 'must be a string');
    }
  }
  if (options.errorHandler !== undefined && typeof options.errorHandler !== 'function') {
    throw new InvalidArgumentError('errorHandler', 'must be a function');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('signal', 'must be an AbortSignal');
  }
  const queue = options.queue as unknown as Record<string, unknown> | undefined;
  if (queue !== undefined) {
    for (const method of [
      'add',
      'addAfter',
      'addRateLimited',
      'forget',
      'get',
      'done',
      'shutDown',
    ]) {
      if (typeof queue?.[method] !== 'function') {
        throw new InvalidArgumentError(
          'queue',
          `must be a rate-limited queue (no ${method} method)`,
        );
      }
    }
  }
}

function isKubeClient(value: KubeClient | KubeConfig): value is KubeClient {
  return 'createResourceSlice' in value && 'kubeConfig' in value;
}

/** The message of a failed call (the apiserver's Status message), for texts like Go's. */
function apiError(operation: ResourceSliceApiOperation, error: unknown): ResourceSliceApiError {
  return new ResourceSliceApiError(operation, errorMessage(error), statusCode(error), error);
}

function poolNameOf(slice: V1ResourceSlice): string {
  return slice.spec?.pool?.name ?? '';
}

/** Existing and desired slices with the same number of devices and the same device names. */
function sameSlice(existing: V1ResourceSlice, desired: Slice): boolean {
  const have = existing.spec?.devices ?? [];
  const want = desired.devices ?? [];
  if (have.length !== want.length) return false;
  const names = new Set(have.map((d) => d.name));
  return want.every((d) => names.has(d.name));
}

/** `desired` with each taint lacking `timeAdded` given that of the same-named existing device's equal taint. */
function copyTaintTimeAdded(from: readonly V1Device[], to: readonly V1Device[]): V1Device[] {
  return to.map((device) => {
    const source = from.find((d) => d.name === device.name);
    if (source === undefined || !device.taints?.some((t) => t.timeAdded == null)) return device;
    const taints = device.taints.map((taint) => {
      if (taint.timeAdded != null) return taint;
      const old = (source.taints ?? []).find(
        (t) => t.key === taint.key && t.value === taint.value && t.effect === taint.effect,
      );
      return old === undefined ? taint : { ...taint, timeAdded: old.timeAdded };
    });
    return { ...device, taints };
  });
}

/** Copies server-set taint times into `desired` (mutated); true when any was copied. */
function copyServerDefaults(desired: V1ResourceSlice, actual: V1ResourceSlice): boolean {
  let copied = false;
  const want = desired.spec?.devices ?? [];
  const got = actual.spec?.devices ?? [];
  for (let i = 0; i < want.length && i < got.length; i++) {
    const wantTaints = want[i]?.taints ?? [];
    const gotTaints = got[i]?.taints ?? [];
    for (let e = 0; e < wantTaints.length && e < gotTaints.length; e++) {
      const w = wantTaints[e];
      const g = gotTaints[e];
      if (w && g && w.timeAdded == null && g.timeAdded != null) {
        if (!copied) {
          desired.spec = structuredClone(desired.spec);
          copied = true;
        }
        const taint = desired.spec.devices?.[i]?.taints?.[e];
        if (taint) taint.timeAdded = g.timeAdded;
      }
    }
  }
  return copied;
}

/**
 * Synchronizes the resources of one DRA driver with ResourceSlice objects: node-local ones
 * (owner a Node) or network-attached ones. A driver for node-local devices runs it in its
 * kubelet plugin. Create it with {@link startController}.
 */
export class Controller {
  readonly #driverName: string;
  readonly #owner: Owner | undefined;
  readonly #client: KubeClient;
  readonly #queue: TypedRateLimitingInterface<string>;
  readonly #mutationCacheTTL: number;
  readonly #syncDelay: number;
  readonly #errorHandler: ErrorHandler;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #abort = new AbortController();
  readonly #informer: SharedIndexInformer<V1ResourceSlice>;
  readonly #sliceStore: MutationCache<V1ResourceSlice>;
  readonly #lastAddByPool = new Map<string, number>();
  readonly #stats: Stats = { numCreates: 0, numUpdates: 0, numDeletes: 0 };
  #resources: DriverResources = { pools: {} };
  #informerDone: Promise<void> = Promise.resolve();
  #workersDone: Promise<void> = Promise.resolve();

  /** @internal Use {@link startController}. */
  constructor(options: Options) {
    checkOptions(options);
    this.#driverName = options.driverName;
    this.#owner = options.owner === undefined ? undefined : { ...options.owner };
    this.#client = isKubeClient(options.kubeClient)
      ? options.kubeClient
      : newKubeClient(options.kubeClient);
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
    this.#mutationCacheTTL = duration(options, 'mutationCacheTTL', DEFAULT_MUTATION_CACHE_TTL_MS);
    this.#syncDelay = duration(options, 'syncDelay', DEFAULT_SYNC_DELAY_MS);
    this.#queue =
      options.queue ??
      newTypedRateLimitingQueue<string>(defaultControllerRateLimiter({ clock: this.#clock }), {
        name: QUEUE_NAME,
        clock: this.#clock,
      });
    const logger = this.#logger;
    this.#errorHandler =
      options.errorHandler ??
      ((err, message) => logger.error({ err }, `${message}: ${err.message}`));
    const nodeName = isNodeOwner(this.#owner) ? this.#owner.name : '';
    const indexFunc = (slice: V1ResourceSlice): readonly string[] => [poolNameOf(slice)];
    this.#informer = new SharedIndexInformer<V1ResourceSlice>({
      name: 'resource.k8s.io/v1/resourceslices',
      listWatch: newListWatch<V1ResourceSlice>(
        this.#client.kubeConfig,
        { group: 'resource.k8s.io', version: 'v1', resource: 'resourceslices' },
        { fieldSelector: `spec.driver=${this.#driverName},spec.nodeName=${nodeName}` },
      ),
      indexers: { [POOL_NAME_INDEX]: indexFunc },
      clock: this.#clock,
      logger: this.#logger,
    });
    this.#sliceStore = new MutationCache(
      this.#informer.indexer,
      POOL_NAME_INDEX,
      indexFunc,
      this.#mutationCacheTTL,
      this.#clock,
    );
    this.#informer.addEventHandler({
      onAdd: (slice) => this.#queue.addAfter(poolNameOf(slice), this.#syncDelay),
      onUpdate: (oldSlice, newSlice) => {
        this.#queue.addAfter(poolNameOf(oldSlice), this.#syncDelay);
        if (poolNameOf(oldSlice) !== poolNameOf(newSlice)) {
          this.#queue.addAfter(poolNameOf(newSlice), this.#syncDelay);
        }
      },
      onDelete: (obj) => {
        const slice = DeletedFinalStateUnknown.isInstance<V1ResourceSlice>(obj) ? obj.obj : obj;
        this.#queue.addAfter(poolNameOf(slice), this.#syncDelay);
      },
    });
  }

  /** @internal Starts the informer, waits for it, publishes the initial resources and starts the worker. */
  async start(
    resources: DriverResources | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const abort = this.#abort;
    if (signal?.aborted) abort.abort(signal.reason);
    else signal?.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
    this.#informerDone = this.#informer.run(abort.signal).finally(() => this.#queue.shutDown());
    const synced = await this.#informer.whenSynced(abort.signal);
    if (!synced) {
      await this.#informerDone;
      const cause = abort.signal.reason;
      throw new Error(
        `sync ResourceSlice informer: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
    this.#logger.info({ driver: this.#driverName }, 'ResourceSlice informer has synced');
    this.update(resources);
    this.#workersDone = runWorkers(this.#queue, (poolName) => this.#processPool(poolName), {
      workers: 1,
      signal: abort.signal,
      shouldRetry: () => undefined,
      clock: this.#clock,
    });
  }

  /**
   * Sets the new desired resources. The controller takes a deep copy, so the caller may
   * change its object afterwards. Undefined or null is the same as no pools: the slices of
   * every previous pool are deleted.
   */
  update(resources?: DriverResources | null): void {
    for (const poolName of Object.keys(this.#resources.pools)) this.#queue.add(poolName);
    this.#resources = deepCopyDriverResources(resources);
    roundTaintTimeAdded(this.#resources);
    toWireResources(this.#resources);
    for (const poolName of Object.keys(this.#resources.pools)) this.#queue.add(poolName);
  }

  /** Counts of successful create, update and delete calls so far. */
  getStats(): Stats {
    return { ...this.#stats };
  }

  /** Cancels all background activity and resolves once the controller has stopped. Slices stay. */
  async stop(): Promise<void> {
    this.#abort.abort(new Error('ResourceSlice controller was asked to stop'));
    this.#queue.shutDown();
    await Promise.allSettled([this.#informerDone, this.#workersDone]);
  }

  async #processPool(poolName: string): Promise<void> {
    if (this.#abort.signal.aborted) return;
    try {
      await this.#syncPool(poolName);
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      this.#errorHandler(err, 'processing ResourceSlice objects');
      throw err;
    }
  }

  async #syncPool(poolName: string): Promise<void> {
    const start = this.#clock.now();
    const slices = this.#sliceStore
      .byIndex(poolName)
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const resources = this.#resources;
    try {
      validateDriverResources(resources);
    } catch (error) {
      this.#errorHandler(error as Error, 'pool validation failed');
      return;
    }
    const pool = resources.pools[poolName];
    if (pool === undefined) {
      if (slices.length > 0) await this.#removeSlices(slices);
      return;
    }

    let nodeName = '';
    const owner = this.#owner;
    if (isNodeOwner(owner)) {
      nodeName = owner.name;
      if (!owner.uid) {
        try {
          const node = await this.#client.readNode(owner.name);
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
    }

    let generation = 0;
    for (const slice of slices)
      generation = Math.max(generation, slice.spec?.pool?.generation ?? 0);
    const obsolete: V1ResourceSlice[] = [];
    const current: V1ResourceSlice[] = [];
    for (const slice of slices) {
      if ((slice.spec?.pool?.generation ?? 0) < generation) obsolete.push(slice);
      else current.push(slice);
    }

    const desiredSlices = pool.slices ?? [];
    const matched = new Map<number, V1ResourceSlice>();
    if (current.length === 1 && desiredSlices.length === 1) {
      matched.set(0, current[0] as V1ResourceSlice);
    } else {
      for (const slice of current) {
        const index = desiredSlices.findIndex((d, i) => !matched.has(i) && sameSlice(slice, d));
        if (index >= 0) matched.set(index, slice);
        else obsolete.push(slice);
      }
    }

    const numNew = desiredSlices.length - matched.size;
    const desiredPool: V1ResourcePool = {
      name: poolName,
      generation,
      resourceSliceCount: desiredSlices.length,
    };
    const desiredAllNodes = pool.nodeSelector === undefined && nodeName === '';
    const changed = new Set<number>();
    for (const [i, slice] of matched) {
      const desired = desiredSlices[i] as Slice;
      const spec = slice.spec;
      if (
        !semanticEqual(spec?.pool, desiredPool) ||
        !semanticEqual(spec?.nodeSelector, pool.nodeSelector) ||
        (spec?.allNodes ?? false) !== desiredAllNodes ||
        !devicesDeepEqual(spec?.devices, desired.devices) ||
        !semanticEqual(spec?.sharedCounters, desired.sharedCounters) ||
        (spec?.perDeviceNodeSelection ?? null) !== (desired.perDeviceNodeSelection ?? null)
      ) {
        changed.add(i);
      }
    }

    let bumped = false;
    if ((pool.generation ?? 0) > generation) {
      generation = pool.generation ?? 0;
      bumped = true;
    } else if (!(numNew === 0 && changed.size <= 1)) {
      generation++;
      bumped = true;
    }
    desiredPool.generation = generation;

    // Delete obsolete slices first: better to withdraw devices the driver no longer has
    // even when the desired slices cannot be published.
    await this.#removeSlices(obsolete);

    const writes = [...matched.keys()].some((i) => changed.has(i) || bumped) || numNew > 0;
    if (writes) {
      validatePoolLimits(poolName, pool, { nodeName });
    }

    for (const [i, existing] of [...matched].sort((a, b) => a[0] - b[0])) {
      if (!changed.has(i) && !bumped) continue;
      const desired = desiredSlices[i] as Slice;
      const slice: V1ResourceSlice = structuredClone(existing);
      const spec = slice.spec as NonNullable<V1ResourceSlice['spec']>;
      spec.pool = { ...desiredPool };
      setOptional(spec, 'nodeSelector', pool.nodeSelector);
      setOptional(spec, 'allNodes', desiredAllNodes ? true : undefined);
      setOptional(spec, 'sharedCounters', desired.sharedCounters);
      setOptional(spec, 'perDeviceNodeSelection', desired.perDeviceNodeSelection);
      setOptional(
        spec,
        'devices',
        copyTaintTimeAdded(existing.spec?.devices ?? [], desired.devices ?? []),
      );
      let actual: V1ResourceSlice;
      try {
        actual = await this.#client.updateResourceSlice(slice);
      } catch (error) {
        throw apiError('update resource slice', error);
      }
      this.#stats.numUpdates++;
      this.#sliceStored('update ResourceSlice', poolName, pool, i, slice, actual);
    }

    let added = false;
    for (let i = 0; i < desiredSlices.length; i++) {
      if (matched.has(i)) continue;
      const desired = desiredSlices[i] as Slice;
      const metadata: V1ObjectMeta = {
        generateName: owner ? `${owner.name}-${this.#driverName}-` : `${this.#driverName}-`,
      };
      if (owner) {
        const ref: V1OwnerReference = {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.name,
          uid: owner.uid ?? '',
          controller: true,
        };
        metadata.ownerReferences = [ref];
      }
      const spec: NonNullable<V1ResourceSlice['spec']> = {
        driver: this.#driverName,
        pool: { ...desiredPool },
      };
      setOptional(spec, 'nodeName', nodeName === '' ? undefined : nodeName);
      setOptional(spec, 'nodeSelector', pool.nodeSelector);
      setOptional(spec, 'allNodes', desiredAllNodes ? true : undefined);
      setOptional(spec, 'devices', desired.devices);
      setOptional(spec, 'sharedCounters', desired.sharedCounters);
      setOptional(spec, 'perDeviceNodeSelection', desired.perDeviceNodeSelection);
      const slice: V1ResourceSlice = {
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceSlice',
        metadata,
        spec,
      };
      let actual: V1ResourceSlice;
      try {
        actual = await this.#client.createResourceSlice(slice);
      } catch (error) {
        throw apiError('create resource slice', error);
      }
      this.#stats.numCreates++;
      added = true;
      this.#sliceStored('create ResourceSlice', poolName, pool, i, slice, actual);
    }

    const now = this.#clock.now();
    if (added) {
      this.#lastAddByPool.set(poolName, now);
    } else {
      const lastAdd = this.#lastAddByPool.get(poolName);
      if (lastAdd !== undefined && start > lastAdd + this.#mutationCacheTTL) {
        this.#lastAddByPool.delete(poolName);
      }
    }
    const lastAdd = this.#lastAddByPool.get(poolName);
    if (lastAdd !== undefined) {
      this.#queue.addAfter(poolName, lastAdd + this.#mutationCacheTTL - now);
    }
  }

  async #removeSlices(slices: readonly V1ResourceSlice[]): Promise<void> {
    for (const slice of slices) {
      try {
        await this.#client.deleteResourceSlice(slice.metadata?.name ?? '', {
          uid: slice.metadata?.uid,
          resourceVersion: slice.metadata?.resourceVersion,
        });
        this.#stats.numDeletes++;
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
    desiredSlice: V1ResourceSlice,
    actualSlice: V1ResourceSlice,
  ): void {
    this.#sliceStore.mutation(actualSlice);
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
      this.#errorHandler(
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

/** Sets `obj[key]`, or deletes it when `value` is undefined (an absent field, as Go's nil). */
function setOptional<T extends object, K extends keyof T>(
  obj: T,
  key: K,
  value: T[K] | undefined,
): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}

/**
 * Constructs a controller, starts its informer (watching the driver's slices by field
 * selector), waits until it has synced, publishes `options.resources` and starts the one
 * worker. Rejects with an `InvalidArgumentError` naming the option for bad options, and
 * with `sync ResourceSlice informer: ...` when `options.signal` aborts first.
 */
export async function startController(options: Options): Promise<Controller> {
  const controller = new Controller(options);
  await controller.start(options.resources, options.signal);
  return controller;
}
