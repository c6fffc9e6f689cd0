//! Shared informers: one list+watch and one cache per resource, fanned out to many handlers.

import type { KubeObject } from '@ctrlkit/client';
import { type Clock, InvalidArgumentError, realClock, type Timer } from '@ctrlkit/core';
import { type Logger, noopLogger } from '../logger.js';
import type { BackoffOptions } from './backoff.js';
import { DeletedFinalStateUnknown } from './key-func.js';
import type { ListWatch } from './list-watch.js';
import {
  type InitialListMode,
  Reflector,
  type ReflectorHealth,
  type ReflectorSink,
} from './reflector.js';
import { Indexer, type Indexers } from './store.js';
import { dropManagedFields, type TransformFunc } from './transform.js';

/** The shortest resync period a handler gets; shorter requests are raised to it: 1 s (client-go). */
export const MINIMUM_RESYNC_PERIOD_MS = 1_000;

/**
 * The callbacks of one handler. Each is optional; they run synchronously, in the order the
 * informer learns of changes, and must not block (enqueue work instead). An exception is
 * logged and does not reach other handlers.
 */
export interface ResourceEventHandler<T> {
  /** An object appeared; `isInInitialList` is true for objects of the informer's first list. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** An object changed; on a resync, `oldObj === newObj`. */
  onUpdate?(oldObj: T, newObj: T): void;
  /** An object went away: its last state, or a tombstone when the deletion was missed. */
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

/** Options of one handler registration. */
export interface HandlerOptions {
  /**
   * Re-deliver every cached object to this handler as `onUpdate(obj, obj)` this often, in
   * ms; `0` for never. Default: the informer's `resyncPeriodMs`. Raised to
   * {@link MINIMUM_RESYNC_PERIOD_MS} when smaller (and not 0).
   */
  resyncPeriodMs?: number;
}

/** What `addEventHandler` returns. */
export interface ResourceEventHandlerRegistration {
  /** True once the informer has synced and this handler has been told of every object of that state. */
  hasSynced(): boolean;
  /** Stops deliveries to the handler; harmless when repeated. */
  remove(): void;
}

/** Options of a {@link SharedIndexInformer}. */
export interface SharedIndexInformerOptions<T extends KubeObject> {
  /** Where objects come from (see `newListWatch`). */
  listWatch: ListWatch<T>;
  /** A name for logs, e.g. `v1/configmaps`. Default `'informer'`. */
  name?: string;
  /** The default resync period of handlers, in ms; `0` for none. Default `0`. */
  resyncPeriodMs?: number;
  /** Index functions beside the built-in namespace index. Default: none. */
  indexers?: Indexers<T>;
  /**
   * Applied to every object before it is stored or delivered; `null` for none. Default
   * {@link dropManagedFields}.
   */
  transform?: TransformFunc<T> | null;
  /** Objects per LIST page for every list. Default: client-go's choice (see `ReflectorOptions.pageSize`). */
  pageSize?: number;
  /** How the initial state is fetched: `'list'`, `'stream'` or `'auto'`. Default `DEFAULT_INITIAL_LIST_MODE`. */
  initialListMode?: InitialListMode;
  /** Watch timeouts are this × (1 + random), in ms. Default 5 min (`DEFAULT_MIN_WATCH_TIMEOUT_MS`). */
  minWatchTimeoutMs?: number;
  /** Backoff after failures. Default: client-go's reflector backoff (800 ms … 30 s). */
  backoff?: BackoffOptions;
  /** Source of time for resyncs and backoff. Default: the real clock. */
  clock?: Clock;
  /** Where failures and handler exceptions are logged. Default: nowhere. */
  logger?: Logger;
  /** Source of randomness in `[0, 1)`. Default `Math.random`. */
  random?: () => number;
}

interface Listener<T> {
  readonly handler: ResourceEventHandler<T>;
  readonly resyncPeriodMs: number;
  ticker: Timer | undefined;
  removed: boolean;
}

/**
 * One list+watch of a resource, an indexed cache of it, and any number of handlers
 * (client-go's `SharedIndexInformer`).
 *
 * Guarantees:
 * - every handler sees the changes of one object in the order the apiserver made them;
 * - the cache (`indexer`) is updated before handlers are called, so a handler reads a cache
 *   at least as new as the event;
 * - a watch resumed after a dropped connection delivers nothing twice and skips nothing;
 * - after a relist (410 Gone), objects that vanished are delivered to `onDelete` as
 *   {@link DeletedFinalStateUnknown}, new ones to `onAdd`, changed ones (another resource
 *   version) to `onUpdate`; unchanged ones are not delivered again;
 * - a handler added after the start gets `onAdd` for every cached object first.
 */
export class SharedIndexInformer<T extends KubeObject = KubeObject> implements ReflectorSink<T> {
  readonly name: string;
  /** The cache. Treat the objects it returns as read-only. */
  readonly indexer: Indexer<T>;
  readonly #reflector: Reflector<T>;
  readonly #resyncPeriodMs: number;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #listeners = new Set<Listener<T>>();
  #synced = false;
  #syncWaiters: Array<() => void> = [];
  #started = false;
  #stopped = false;

  constructor(options: SharedIndexInformerOptions<T>) {
    if (options === null || typeof options !== 'object')
      throw new InvalidArgumentError('options', 'must be an object');
    this.name = options.name ?? 'informer';
    this.#resyncPeriodMs = resyncPeriod('resyncPeriodMs', options.resyncPeriodMs, 0);
    const transform =
      options.transform === undefined ? (dropManagedFields as TransformFunc<T>) : options.transform;
    if (transform !== null && typeof transform !== 'function') {
      throw new InvalidArgumentError('transform', 'must be a function or null');
    }
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
    this.indexer = new Indexer<T>({ indexers: options.indexers });
    this.#reflector = new Reflector<T>({
      listWatch: options.listWatch,
      sink: this,
      name: this.name,
      pageSize: options.pageSize,
      initialListMode: options.initialListMode,
      minWatchTimeoutMs: options.minWatchTimeoutMs,
      backoff: options.backoff,
      transform: transform ?? undefined,
      clock: this.#clock,
      logger: this.#logger,
      random: options.random,
    });
  }

  /**
   * Registers a handler. When the informer already holds objects, `onAdd` is called for
   * each of them (synchronously, before this returns), with `isInInitialList` true until
   * the informer has synced.
   */
  addEventHandler(
    handler: ResourceEventHandler<T>,
    options: HandlerOptions = {},
  ): ResourceEventHandlerRegistration {
    if (handler === null || typeof handler !== 'object') {
      throw new InvalidArgumentError(
        'handler',
        'must be an object with onAdd, onUpdate and/or onDelete',
      );
    }
    for (const name of ['onAdd', 'onUpdate', 'onDelete'] as const) {
      if (handler[name] !== undefined && typeof handler[name] !== 'function') {
        throw new InvalidArgumentError(`handler.${name}`, 'must be a function');
      }
    }
    let period = resyncPeriod('resyncPeriodMs', options?.resyncPeriodMs, this.#resyncPeriodMs);
    if (period > 0 && period < MINIMUM_RESYNC_PERIOD_MS) period = MINIMUM_RESYNC_PERIOD_MS;
    const listener: Listener<T> = {
      handler,
      resyncPeriodMs: period,
      ticker: undefined,
      removed: false,
    };
    this.#listeners.add(listener);
    if (this.indexer.size > 0 && handler.onAdd !== undefined) {
      const initial = !this.#synced;
      for (const obj of this.indexer.list())
        this.#call(listener, 'onAdd', () => handler.onAdd?.(obj, initial));
    }
    if (this.#started && !this.#stopped) this.#startResync(listener);
    return {
      hasSynced: () => this.#synced && !listener.removed,
      remove: () => this.#removeListener(listener),
    };
  }

  /** Removes a handler registered with {@link addEventHandler}. */
  removeEventHandler(registration: ResourceEventHandlerRegistration): void {
    registration.remove();
  }

  /** Adds index functions to the cache (also after the start: present objects are indexed). */
  addIndexers(indexers: Indexers<T>): void {
    this.indexer.addIndexers(indexers);
  }

  /** True once the first complete state has been stored and delivered to handlers. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** True once `run` was called and its signal aborted. */
  get isStopped(): boolean {
    return this.#stopped;
  }

  /** The resource version of the last list, event or bookmark seen. */
  get lastSyncResourceVersion(): string {
    return this.#reflector.lastSyncResourceVersion;
  }

  /** Its reflector's state, when it last heard from the server, and since when it has had no open watch. */
  health(): ReflectorHealth {
    return this.#reflector.health();
  }

  /** Resolves true once synced, or false when `signal` aborts first. */
  whenSynced(signal?: AbortSignal): Promise<boolean> {
    if (this.#synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  /**
   * Lists and watches, keeping the cache and handlers up to date, until `signal` aborts;
   * resolves then. Errors are logged and retried, never thrown. Throws
   * `InvalidArgumentError` (field `run`) when called twice: an informer runs once.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (!(signal instanceof AbortSignal))
      throw new InvalidArgumentError('signal', 'must be an AbortSignal');
    if (this.#started)
      throw new InvalidArgumentError('run', `informer ${this.name} was already started`);
    this.#started = true;
    if (signal.aborted) {
      this.#stopped = true;
      return;
    }
    for (const listener of this.#listeners) this.#startResync(listener);
    try {
      await this.#reflector.run(signal);
    } finally {
      this.#stopped = true;
      for (const listener of this.#listeners) {
        listener.ticker?.cancel();
        listener.ticker = undefined;
      }
    }
  }

  // --- ReflectorSink: called by the reflector; not for direct use.

  /** @internal The complete state after a (re)list. */
  replace(objects: T[], resourceVersion: string): void {
    const indexer = this.indexer;
    const initial = !this.#synced;
    if (indexer.size === 0) {
      for (let i = 0; i < objects.length; i++) {
        const obj = objects[i] as T;
        const key = this.#keyOf(obj);
        if (key === undefined) continue;
        indexer.put(key, obj);
        this.#distributeAdd(obj, initial);
      }
    } else {
      const keys = new Map<string, T>();
      for (const obj of objects) {
        const key = this.#keyOf(obj);
        if (key !== undefined) keys.set(key, obj);
      }
      for (const key of indexer.listKeys()) {
        if (keys.has(key)) continue;
        const old = indexer.deleteByKey(key) as T;
        this.#distributeDelete(new DeletedFinalStateUnknown<T>(key, old));
      }
      for (const [key, obj] of keys) {
        const old = indexer.put(key, obj);
        if (old === undefined) this.#distributeAdd(obj, initial);
        else if (
          old.metadata?.resourceVersion !== obj.metadata?.resourceVersion ||
          !old.metadata?.resourceVersion
        ) {
          this.#distributeUpdate(old, obj);
        }
      }
    }
    this.#logger.debug(
      { informer: this.name, objects: objects.length, resourceVersion },
      'cache replaced',
    );
    if (!this.#synced) {
      this.#synced = true;
      const waiters = this.#syncWaiters;
      this.#syncWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** @internal */
  add(obj: T): void {
    const key = this.#keyOf(obj);
    if (key === undefined) return;
    const old = this.indexer.put(key, obj);
    if (old === undefined) this.#distributeAdd(obj, false);
    else this.#distributeUpdate(old, obj);
  }

  /** @internal */
  update(obj: T): void {
    this.add(obj);
  }

  /** @internal */
  delete(obj: T): void {
    const key = this.#keyOf(obj);
    if (key === undefined) return;
    this.indexer.deleteByKey(key);
    this.#distributeDelete(obj);
  }

  /** The key of `obj`, or undefined (logged) for an object that has none: it is skipped. */
  #keyOf(obj: T): string | undefined {
    try {
      return this.indexer.keyFunc(obj);
    } catch (error) {
      this.#logger.error(
        { informer: this.name, error: error instanceof Error ? error.message : String(error) },
        'an object without a key was skipped',
      );
      return undefined;
    }
  }

  // The three distributions call handlers directly (no closure per call): they run for
  // every object of a list and every watch event.
  #distributeAdd(obj: T, initial: boolean): void {
    for (const listener of this.#listeners) {
      const handler = listener.handler;
      if (handler.onAdd === undefined || listener.removed) continue;
      try {
        handler.onAdd(obj, initial);
      } catch (error) {
        this.#handlerThrew('onAdd', error);
      }
    }
  }

  #distributeUpdate(old: T, obj: T): void {
    for (const listener of this.#listeners) {
      const handler = listener.handler;
      if (handler.onUpdate === undefined || listener.removed) continue;
      try {
        handler.onUpdate(old, obj);
      } catch (error) {
        this.#handlerThrew('onUpdate', error);
      }
    }
  }

  #distributeDelete(obj: T | DeletedFinalStateUnknown<T>): void {
    for (const listener of this.#listeners) {
      const handler = listener.handler;
      if (handler.onDelete === undefined || listener.removed) continue;
      try {
        handler.onDelete(obj);
      } catch (error) {
        this.#handlerThrew('onDelete', error);
      }
    }
  }

  #call(listener: Listener<T>, callback: string, fn: () => void): void {
    if (listener.removed) return;
    try {
      fn();
    } catch (error) {
      this.#handlerThrew(callback, error);
    }
  }

  #handlerThrew(callback: string, error: unknown): void {
    this.#logger.error(
      {
        informer: this.name,
        callback,
        error: error instanceof Error ? error.message : String(error),
      },
      'event handler threw',
    );
  }

  #startResync(listener: Listener<T>): void {
    if (listener.resyncPeriodMs <= 0 || listener.ticker !== undefined || listener.removed) return;
    listener.ticker = this.#clock.setTicker(() => this.#resync(listener), listener.resyncPeriodMs);
  }

  #resync(listener: Listener<T>): void {
    const onUpdate = listener.handler.onUpdate;
    if (!this.#synced || listener.removed || onUpdate === undefined) return;
    for (const obj of this.indexer.list()) {
      this.#call(listener, 'onUpdate', () => onUpdate.call(listener.handler, obj, obj));
    }
  }

  #removeListener(listener: Listener<T>): void {
    listener.removed = true;
    listener.ticker?.cancel();
    listener.ticker = undefined;
    this.#listeners.delete(listener);
  }
}

/** How often {@link waitForCacheSync} polls a source that only has `hasSynced()`: 100 ms (client-go). */
export const SYNC_POLL_PERIOD_MS = 100;

/** Something that syncs: an informer (`whenSynced`), or a handler registration or any `hasSynced()`. */
export type Syncable =
  | { whenSynced(signal?: AbortSignal): Promise<boolean> }
  | { hasSynced(): boolean };

/**
 * Resolves true once every source has synced, or false as soon as `signal` aborts
 * (client-go's `cache.WaitForCacheSync`). Informers are awaited without polling; sources
 * with only `hasSynced()` (handler registrations) are polled every
 * {@link SYNC_POLL_PERIOD_MS} on the real clock.
 */
export async function waitForCacheSync(
  signal: AbortSignal,
  ...sources: ReadonlyArray<Syncable>
): Promise<boolean> {
  const results = await Promise.all(
    sources.map((source) =>
      'whenSynced' in source ? source.whenSynced(signal) : pollSynced(source, signal),
    ),
  );
  return results.every(Boolean);
}

function pollSynced(source: { hasSynced(): boolean }, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (signal.aborted) resolve(false);
      else if (source.hasSynced()) resolve(true);
      else setTimeout(check, SYNC_POLL_PERIOD_MS).unref();
    };
    check();
  });
}

function resyncPeriod(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(
      field,
      `must be a finite number of ms ≥ 0, got ${String(value)}`,
    );
  }
  return value;
}
