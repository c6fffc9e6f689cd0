//! The controller loop: informer events become keys in a rate-limited queue, and workers reconcile them.

import { type Clock, realClock, rejectRenamedOptions } from '@ctrlkit/core';
import {
  defaultControllerRateLimiter,
  globalMetricsProvider,
  type MetricsProvider,
  newTypedRateLimitingQueue,
  type TypedRateLimitingInterface,
} from '@ctrlkit/workqueue';
import { DeferredMetricsProvider } from '../internal/deferred-metrics-provider.js';
import { type Logger, noopLogger } from '../logger.js';
import type { ReconcileMetrics, ReconcileOutcome } from '../metrics/reconcile-metrics.js';
import type { Predicate } from '../predicate/predicate.js';
import { CacheSyncTimeoutError } from './cache-sync-timeout-error.js';
import {
  type ControllerOptions,
  checkControllerOptions,
  DEFAULT_CACHE_SYNC_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_RECONCILES,
} from './controller-options.js';
import type { EventSource, ObjectWithMetadata, TombstoneLike } from './event-source.js';
import { objectKey } from './keys.js';
import type { MaybeResult } from './reconciler.js';
import { TerminalError } from './terminal-error.js';

/** How events of one watched informer become keys. */
export interface WatchOptions<T> {
  /**
   * The keys an object's events enqueue; an update enqueues the keys of the old and of the
   * new object, as controller-runtime's `EnqueueRequestForOwner` and
   * `EnqueueRequestsFromMapFunc` do (an owner the object left is told too). Default: the
   * object's own key.
   */
  mapToKeys?: (obj: T) => readonly string[];
  /** Events of objects for which this returns false are ignored. Default: all pass. */
  filter?: (obj: T) => boolean;
  /** Events pass only when every predicate passes them (updates see old and new). Default: all pass. */
  predicates?: readonly Predicate<T>[];
}

/** How often `run` checks whether the caches have synced, in ms. */
const cacheSyncPollPeriod = 100;

/**
 * A controller: watch informers, reconcile keys. Guarantees:
 * - a key is reconciled by one worker at a time, and events arriving meanwhile cause one
 *   more reconcile after it;
 * - success forgets the key's failures; an error requeues it with the rate limiter; a
 *   {@link TerminalError} drops it; a result can requeue it after a delay;
 * - workers start once every watched informer has synced;
 * - when the signal given to `run` fires, no new key starts, keys being reconciled
 *   finish, and `run` resolves after them.
 */
export class Controller {
  /** The controller's queue; enqueue keys from anywhere with {@link Controller.enqueue}. */
  readonly queue: TypedRateLimitingInterface<string>;
  readonly #options: Required<Pick<ControllerOptions, 'name' | 'reconcile'>> & {
    workers: number;
    clock: Clock;
    logger: Logger;
    cacheSyncTimeoutMs: number;
  };
  /** Set when the options named no metrics provider: {@link Controller.useMetrics} can bind one. */
  readonly #queueMetrics: DeferredMetricsProvider | undefined;
  #reconcileMetrics: ReconcileMetrics | undefined;
  readonly #ownReconcileMetrics: boolean;
  /** What must have synced before workers start: each watch's registration, or its informer. */
  readonly #synced: Array<() => boolean> = [];
  #running = false;

  constructor(options: ControllerOptions) {
    checkControllerOptions(options);
    const clock = options.clock ?? realClock;
    this.#options = {
      name: options.name,
      reconcile: options.reconcile,
      workers: options.maxConcurrentReconciles ?? DEFAULT_MAX_CONCURRENT_RECONCILES,
      clock,
      logger: options.logger ?? noopLogger,
      cacheSyncTimeoutMs: options.cacheSyncTimeoutMs ?? DEFAULT_CACHE_SYNC_TIMEOUT_MS,
    };
    this.#queueMetrics =
      options.metricsProvider === undefined
        ? new DeferredMetricsProvider(globalMetricsProvider())
        : undefined;
    this.#reconcileMetrics = options.reconcileMetrics;
    this.#ownReconcileMetrics = options.reconcileMetrics !== undefined;
    this.queue = newTypedRateLimitingQueue(
      options.rateLimiter ?? defaultControllerRateLimiter<string>({ clock }),
      {
        name: options.name,
        clock,
        metricsProvider: options.metricsProvider ?? this.#queueMetrics,
      },
    );
  }

  /** The controller's name (its metrics label). */
  get name(): string {
    return this.#options.name;
  }

  /**
   * Sends the queue's and the reconciles' metrics to these, where the options named none
   * (the `Manager` calls it in `add`). Call before `run`, before keys are added.
   */
  useMetrics(metrics: {
    metricsProvider?: MetricsProvider;
    reconcileMetrics?: ReconcileMetrics;
  }): void {
    if (this.#running)
      throw new Error(`controller ${this.#options.name}: useMetrics() after run()`);
    if (metrics.metricsProvider !== undefined) this.#queueMetrics?.bind(metrics.metricsProvider);
    if (metrics.reconcileMetrics !== undefined && !this.#ownReconcileMetrics) {
      this.#reconcileMetrics = metrics.reconcileMetrics;
    }
  }

  /** Enqueues the keys of `source`'s adds, updates and deletes (see {@link WatchOptions}). Call before `run`. */
  watch<T>(source: EventSource<T>, options: WatchOptions<T> = {}): this {
    if (this.#running) throw new Error(`controller ${this.#options.name}: watch() after run()`);
    const { mapToKeys, filter, predicates = [] } = options;
    const enqueue = (obj: T | TombstoneLike) => {
      const live = isTombstone(obj) ? (obj.obj as T) : obj;
      if (filter !== undefined && !filter(live)) return;
      if (mapToKeys !== undefined) {
        for (const key of mapToKeys(live)) this.queue.add(key);
      } else {
        this.queue.add(isTombstone(obj) ? obj.key : objectKey(obj as ObjectWithMetadata));
      }
    };
    const registration = source.addEventHandler({
      onAdd: (obj, isInInitialList) => {
        const event = { object: obj, isInInitialList: isInInitialList === true };
        if (predicates.every((p) => p.create(event))) enqueue(obj);
      },
      onUpdate: (old, obj) => {
        if (!predicates.every((p) => p.update({ objectOld: old, objectNew: obj }))) return;
        if (mapToKeys !== undefined && (filter === undefined || filter(old))) {
          const keys = new Set(mapToKeys(old));
          if (filter === undefined || filter(obj)) for (const key of mapToKeys(obj)) keys.add(key);
          for (const key of keys) this.queue.add(key);
          return;
        }
        enqueue(obj);
      },
      onDelete: (obj) => {
        const unknown = isTombstone(obj);
        const event = { object: unknown ? (obj.obj as T) : obj, deleteStateUnknown: unknown };
        if (predicates.every((p) => p.delete(event))) enqueue(obj);
      },
    }) as { hasSynced?: unknown } | undefined;
    // A registration that knows whether its handler has seen the initial list is the
    // precise signal (client-go's ResourceEventHandlerRegistration); else the informer's.
    const hasSynced = registration?.hasSynced;
    this.#synced.push(
      typeof hasSynced === 'function'
        ? () => hasSynced.call(registration) === true
        : () => source.hasSynced(),
    );
    return this;
  }

  /** Adds a key to reconcile. */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  /**
   * Waits for the watched informers to sync, then reconciles keys with
   * `maxConcurrentReconciles` workers until `signal` fires; resolves once the keys being
   * reconciled are done. Rejects with {@link CacheSyncTimeoutError} if the caches do not
   * sync in time (the queue is shut down).
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new Error(`controller ${this.#options.name}: run() called twice`);
    this.#running = true;
    const stop = () => void this.queue.shutDownWithDrain();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const synced = await this.#waitForCacheSync(signal);
      if (!synced) {
        this.queue.shutDown();
        if (signal.aborted) return;
        throw new CacheSyncTimeoutError(this.#options.name, this.#options.cacheSyncTimeoutMs);
      }
      const { workers, name } = this.#options;
      this.#reconcileMetrics?.started(name, workers);
      await Promise.all(Array.from({ length: workers }, () => this.#worker(signal)));
      await this.queue.shutDownWithDrain();
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  async #worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const next = await this.queue.get();
      if (next.shutdown) return;
      const metrics = this.#reconcileMetrics;
      metrics?.activeWorkers(this.#options.name, 1);
      try {
        await this.#reconcileHandler(next.item, signal);
      } finally {
        metrics?.activeWorkers(this.#options.name, -1);
        this.queue.done(next.item);
      }
    }
  }

  async #reconcileHandler(key: string, signal: AbortSignal): Promise<void> {
    const { clock, name } = this.#options;
    const started = clock.now();
    const [outcome, terminal] = await this.#reconcileOnce(key, signal);
    this.#reconcileMetrics?.reconciled(name, outcome, (clock.now() - started) / 1000, terminal);
  }

  /** Reconciles `key` and requeues or forgets it; what happened, for the metrics. */
  async #reconcileOnce(key: string, signal: AbortSignal): Promise<[ReconcileOutcome, boolean]> {
    const { reconcile, logger, name } = this.#options;
    let result: MaybeResult;
    try {
      result = await reconcile(key, signal);
      rejectRenamedOptions(result, { requeueAfter: 'requeueAfterMs' });
    } catch (error) {
      if (TerminalError.isInstance(error)) {
        this.queue.forget(key);
        logger.error(
          { controller: name, key, err: error },
          'reconciler error (terminal, not retried)',
        );
        return ['error', true];
      }
      this.queue.addRateLimited(key);
      logger.error({ controller: name, key, err: error }, 'reconciler error, will retry');
      return ['error', false];
    }
    if (result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
      this.queue.forget(key);
      this.queue.addAfter(key, result.requeueAfterMs);
      return ['requeue_after', false];
    }
    if (result?.requeue) {
      this.queue.addRateLimited(key);
      return ['requeue', false];
    }
    this.queue.forget(key);
    return ['success', false];
  }

  /** Resolves true once every source has synced, false on timeout or abort. */
  #waitForCacheSync(signal: AbortSignal): Promise<boolean> {
    const { clock, cacheSyncTimeoutMs } = this.#options;
    const deadline = clock.now() + cacheSyncTimeoutMs;
    return new Promise((resolve) => {
      const check = () => {
        if (signal.aborted) return resolve(false);
        if (this.#synced.every((synced) => synced())) return resolve(true);
        if (clock.now() >= deadline) return resolve(false);
        clock.setTimer(check, Math.min(cacheSyncPollPeriod, deadline - clock.now()));
      };
      check();
    });
  }
}

function isTombstone(obj: unknown): obj is TombstoneLike {
  return (
    typeof obj === 'object' &&
    obj !== null &&
    'key' in obj &&
    'obj' in obj &&
    typeof (obj as TombstoneLike).key === 'string' &&
    !('metadata' in obj)
  );
}
