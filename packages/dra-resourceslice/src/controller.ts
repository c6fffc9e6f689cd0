//! The ResourceSlice controller: keeps a driver's desired pools and the cluster's slices in step.

import { type Clock, type Logger, noopLogger, realClock } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import {
  DeletedFinalStateUnknown,
  type InitialListMode,
  newListWatch,
  SharedIndexInformer,
} from '@ctrlkit/runtime/informers';
import type { InformerTracker } from '@ctrlkit/runtime/manager';
import {
  defaultControllerRateLimiter,
  newTypedRateLimitingQueue,
  runWorkers,
  type TypedRateLimitingInterface,
} from '@ctrlkit/workqueue';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import type { KubeClient } from './adapter.js';
import {
  checkOptions,
  DEFAULT_MUTATION_CACHE_TTL_MS,
  DEFAULT_SYNC_DELAY_MS,
  duration,
  type ErrorHandler,
  isKubeClient,
  isNodeOwner,
  type Options,
  QUEUE_NAME,
} from './controller-options.js';
import type { Stats } from './controller-stats.js';
import {
  type DriverResources,
  deepCopyDriverResources,
  type Owner,
  roundTaintTimeAdded,
} from './driver-resources.js';
import { MutationCache } from './internal/mutation-cache.js';
import { PoolSyncer } from './internal/pool-sync.js';
import { toWireResources } from './internal/wire.js';
import { newKubeClient } from './kube-client.js';

/**
 * How the controller's informer gets its initial state: `'auto'`, a streaming list (one WATCH
 * with `sendInitialEvents=true`), falling back to a LIST for that attempt where the apiserver
 * refuses the stream, as client-go v0.35's reflector does with its WatchListClient feature on
 * (the default). A streaming list needs only the `watch` verb; the fallback needs `list`.
 */
export const INITIAL_LIST_MODE: InitialListMode = 'auto';

/** The informer index of slices by `spec.pool.name`. */
export const POOL_NAME_INDEX = 'poolName';

function poolNameOf(slice: Wire<V1ResourceSlice>): string {
  return slice.spec?.pool?.name ?? '';
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
  readonly #mutationCacheTTLMs: number;
  readonly #syncDelayMs: number;
  readonly #errorHandler: ErrorHandler;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #tracker: InformerTracker | undefined;
  readonly #abort = new AbortController();
  readonly #informer: SharedIndexInformer<Wire<V1ResourceSlice>>;
  readonly #pools: PoolSyncer;
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
    this.#tracker = options.informerTracker;
    this.#mutationCacheTTLMs = duration(
      options,
      'mutationCacheTTLMs',
      DEFAULT_MUTATION_CACHE_TTL_MS,
    );
    this.#syncDelayMs = duration(options, 'syncDelayMs', DEFAULT_SYNC_DELAY_MS);
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
    const fieldSelector = `spec.driver=${this.#driverName},spec.nodeName=${nodeName}`;
    const indexFunc = (slice: Wire<V1ResourceSlice>): readonly string[] => [poolNameOf(slice)];
    this.#informer = new SharedIndexInformer<Wire<V1ResourceSlice>>({
      name: `resource.k8s.io/v1/resourceslices (fields ${fieldSelector})`,
      listWatch: newListWatch<Wire<V1ResourceSlice>>(
        this.#client.client,
        { group: 'resource.k8s.io', version: 'v1', resource: 'resourceslices' },
        { fieldSelector },
      ),
      indexers: { [POOL_NAME_INDEX]: indexFunc },
      // As client-go v0.35 (WatchListClient on by default): the initial state by one streaming
      // WATCH, and a LIST only where the apiserver refuses the stream.
      initialListMode: INITIAL_LIST_MODE,
      clock: this.#clock,
      logger: this.#logger,
    });
    this.#pools = new PoolSyncer({
      driverName: this.#driverName,
      owner: this.#owner,
      client: this.#client,
      queue: this.#queue,
      sliceStore: new MutationCache(
        this.#informer.indexer,
        POOL_NAME_INDEX,
        indexFunc,
        this.#mutationCacheTTLMs,
        this.#clock,
      ),
      stats: this.#stats,
      resources: () => this.#resources,
      errorHandler: this.#errorHandler,
      signal: this.#abort.signal,
      clock: this.#clock,
      mutationCacheTTLMs: this.#mutationCacheTTLMs,
    });
    this.#informer.addEventHandler({
      onAdd: (slice) => this.#queue.addAfter(poolNameOf(slice), this.#syncDelayMs),
      onUpdate: (oldSlice, newSlice) => {
        this.#queue.addAfter(poolNameOf(oldSlice), this.#syncDelayMs);
        if (poolNameOf(oldSlice) !== poolNameOf(newSlice)) {
          this.#queue.addAfter(poolNameOf(newSlice), this.#syncDelayMs);
        }
      },
      onDelete: (obj) => {
        const slice = DeletedFinalStateUnknown.isInstance<Wire<V1ResourceSlice>>(obj)
          ? obj.obj
          : obj;
        this.#queue.addAfter(poolNameOf(slice), this.#syncDelayMs);
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
    const untrack = this.#tracker?.trackInformer(this.#informer);
    this.#informerDone = this.#informer.run(abort.signal).finally(() => {
      this.#queue.shutDown();
      untrack?.();
    });
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
      await this.#pools.syncPool(poolName);
    } catch (error) {
      // A sync abandoned by stop() is not an error of the pool.
      if (this.#abort.signal.aborted) return;
      const err = error instanceof Error ? error : new Error(String(error));
      this.#errorHandler(err, 'processing ResourceSlice objects');
      throw err;
    }
  }
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
