//! The de-duplicating work queue: client-go's `Typed` queue.

import { type Clock, realClock } from '@ctrlkit/core';
import { Fifo } from './internal/fifo.js';
import { QueueMetrics } from './internal/queue-metrics.js';
import { checkFunction, checkOptions } from './internal/validate.js';
import { globalMetricsProvider, type MetricsProvider } from './metrics.js';

/**
 * What {@link TypedInterface.get} resolves to: the next item, or `shutdown: true` once the
 * queue is shutting down and empty.
 */
export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

/**
 * Gives the identity of a queue item: two items with the same key are the same work. Not a
 * cache's object key (`@ctrlkit/runtime`'s `KeyFunc`, client-go's `cache.KeyFunc`).
 */
export type ItemKeyFunc<T> = (item: T) => string | number;

/**
 * The old name of {@link ItemKeyFunc}.
 * @deprecated Renamed {@link ItemKeyFunc}; this alias goes in the next minor version.
 */
export type KeyFunc<T> = ItemKeyFunc<T>;

/**
 * A work queue (client-go's `TypedInterface`). Guarantees:
 * - fair: items are handed out in the order they were added;
 * - stingy: an item added many times before it is handed out is handed out once;
 * - an item is never handed to two workers at once: added while being processed, it is
 *   queued again once, after {@link TypedInterface.done};
 * - a waiting {@link TypedInterface.get} resolves as soon as an item or shutdown arrives.
 */
export interface TypedInterface<T> {
  /** Marks `item` as needing processing; ignored once shutting down. */
  add(item: T): void;
  /** How many items wait to be handed out (not those being processed). */
  len(): number;
  /**
   * Waits for the next item and marks it as being processed; call {@link done} after.
   * Items already queued are still handed out after shutdown; once the queue is empty
   * and shutting down it resolves `{ shutdown: true }`.
   */
  get(): Promise<GetResult<T>>;
  /** Marks `item` as processed; if it was added meanwhile, it is queued again. */
  done(item: T): void;
  /** Stops the queue: waiting `get` calls resolve with shutdown, later adds are ignored. Does not wait. */
  shutDown(): void;
  /**
   * Stops the queue like {@link shutDown}, then resolves once every item handed out is
   * done. A later {@link shutDown} releases the wait at once. Never resolves if a worker
   * never calls `done`.
   */
  shutDownWithDrain(): Promise<void>;
  /** Whether {@link shutDown} or {@link shutDownWithDrain} was called. */
  shuttingDown(): boolean;
}

/**
 * The store a queue keeps waiting items in (client-go's `Queue`): a FIFO by default;
 * supply another to order items differently.
 */
export interface Queue<T> {
  /** Called when an item already waiting is added again (a hook for priority queues). */
  touch(item: T): void;
  /** Appends an item that is not in the store. */
  push(item: T): void;
  /** How many items are stored. */
  len(): number;
  /** Removes and returns the next item; only called when `len() > 0`. */
  pop(): T;
}

/** Options of {@link newTyped} (client-go's `TypedQueueConfig`). */
export interface QueueConfig<T> {
  /** The queue's name, the `name` label of its metrics. Default: none, and no metrics. */
  name?: string;
  /** Where the metrics of a named queue go. Default: the provider of {@link setProvider}. Ignored without `name`. */
  metricsProvider?: MetricsProvider;
  /** The clock of the metrics. Default: {@link realClock}. */
  clock?: Clock;
  /** The store of waiting items. Default: a FIFO. */
  queue?: Queue<T>;
  /**
   * The identity of an item. Default: the item itself, compared as a Map key compares
   * (strings and numbers by value, objects by reference); give one for object items.
   */
  keyFunc?: ItemKeyFunc<T>;
}

const queueConfigKeys = ['name', 'metricsProvider', 'clock', 'queue', 'keyFunc'] as const;
const shutdownResult: GetResult<never> = Object.freeze({ item: undefined, shutdown: true });

/** Makes a work queue (client-go's `NewTypedWithConfig`). */
export function newTyped<T>(config: QueueConfig<T> = {}): TypedInterface<T> {
  checkOptions(config, 'config', queueConfigKeys);
  checkFunction(config.keyFunc, 'config.keyFunc');
  return new TypedQueue(config);
}

/** The state of a key waiting to be handed out (client-go's dirty, not processing). */
const WAITING: unique symbol = Symbol('waiting');

/** The state of a key handed out and added again meanwhile: `item` is queued at done. */
class AddedWhileProcessing<T> {
  constructor(readonly item: T) {}
}

/**
 * A key's state: {@link WAITING}, `null` (handed out: client-go's processing, not dirty) or
 * {@link AddedWhileProcessing} (dirty and processing); a key absent (`undefined` from `get`) is
 * neither. One `get` tells all four apart, `undefined` and `null` by reference compares.
 */
type KeyState<T> = typeof WAITING | null | AddedWhileProcessing<T>;

class TypedQueue<T> implements TypedInterface<T> {
  readonly #store: Queue<T>;
  /** Whether the store wants {@link Queue.touch} (the default FIFO does not). */
  readonly #touches: boolean;
  readonly #keyOf: ((item: T) => unknown) | undefined;
  /**
   * client-go's dirty and processing sets as one map: a key's round (added, handed out, done)
   * costs one insertion and one deletion, the other steps overwrite its value. Two sets cost
   * two of each, and V8 shrinks a table that a deletion leaves a quarter full (a one-entry
   * processing set on every done).
   */
  readonly #states = new Map<unknown, KeyState<T>>();
  /** How many keys are handed out and not done. */
  #processing = 0;
  readonly #metrics: QueueMetrics<unknown> | undefined;
  #waiters: Array<(result: GetResult<T>) => void> = [];
  #drainWaiters: Array<() => void> = [];
  #shuttingDown = false;

  constructor(config: QueueConfig<T>) {
    this.#store = config.queue ?? new Fifo<T>();
    this.#touches = config.queue !== undefined;
    this.#keyOf = config.keyFunc;
    if (config.name !== undefined && config.name !== '') {
      const provider = config.metricsProvider ?? globalMetricsProvider();
      this.#metrics = new QueueMetrics(config.name, provider, config.clock ?? realClock);
    }
  }

  add(item: T): void {
    if (this.#shuttingDown) return;
    const key = this.#keyOf === undefined ? item : this.#keyOf(item);
    const state = this.#states.get(key);
    if (state === null) {
      this.#metrics?.add(key);
      this.#states.set(key, new AddedWhileProcessing(item));
      return;
    }
    if (state !== undefined) {
      // Already dirty, the hot path of a contended queue. Touch only a waiting item.
      if (this.#touches && state === WAITING) this.#store.touch(item);
      return;
    }
    this.#metrics?.add(key);
    this.#states.set(key, WAITING);
    this.#store.push(item);
    if (this.#waiters.length > 0) this.#handOut();
  }

  len(): number {
    return this.#store.len();
  }

  get(): Promise<GetResult<T>> {
    if (this.#store.len() > 0) return Promise.resolve(this.#take());
    if (this.#shuttingDown) return Promise.resolve(shutdownResult);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  done(item: T): void {
    const key = this.#keyOf === undefined ? item : this.#keyOf(item);
    this.#metrics?.done(key);
    const state = this.#states.get(key);
    if (state === null) {
      this.#states.delete(key);
      if (--this.#processing === 0) this.#releaseDrainWaiters();
    } else if (state !== undefined && state !== WAITING) {
      this.#processing--;
      this.#states.set(key, WAITING);
      this.#store.push(state.item);
      if (this.#waiters.length > 0) this.#handOut();
    }
  }

  shutDown(): void {
    this.#shutDown();
    this.#releaseDrainWaiters();
  }

  shutDownWithDrain(): Promise<void> {
    this.#shutDown();
    if (this.#processing === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  #shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#metrics?.stop();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(shutdownResult);
  }

  #releaseDrainWaiters(): void {
    const waiters = this.#drainWaiters;
    if (waiters.length === 0) return;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Hands stored items to waiting getters, oldest getter first. */
  #handOut(): void {
    while (this.#waiters.length > 0 && this.#store.len() > 0) {
      const resolve = this.#waiters.shift()!;
      resolve(this.#take());
    }
  }

  #take(): GetResult<T> {
    const item = this.#store.pop();
    const key = this.#keyOf === undefined ? item : this.#keyOf(item);
    this.#metrics?.get(key);
    this.#states.set(key, null);
    this.#processing++;
    return { item, shutdown: false };
  }
}
