//! The delaying queue: a work queue with `addAfter`, client-go's `TypedDelayingInterface`.

import { type Clock, realClock, type Timer } from '@ctrlkit/core';
import { ReadyHeap, type WaitingEntry } from './internal/ready-heap.js';
import { checkFinite, checkFunction, checkOptions } from './internal/validate.js';
import { type CounterMetric, globalMetricsProvider, type MetricsProvider } from './metrics.js';
import { type GetResult, type ItemKeyFunc, newTyped, type TypedInterface } from './queue.js';

/**
 * A work queue that can also add an item after a delay. Guarantees, beyond the queue's:
 * - an item waiting more than once keeps the earliest time;
 * - a delayed item is never added before its time, and items falling due together are
 *   added earliest first;
 * - one timer serves the whole queue; it never keeps the process alive, and none is
 *   left after shutdown (waiting items are dropped).
 */
export interface TypedDelayingInterface<T> extends TypedInterface<T> {
  /**
   * Adds `item` once `delayMs` milliseconds have passed; at once if `delayMs <= 0`.
   * Ignored once shutting down. Throws {@link InvalidArgumentError} for a NaN or infinite delay.
   */
  addAfter(item: T, delayMs: number): void;
}

/** Options of {@link newTypedDelayingQueue} (client-go's `TypedDelayingQueueConfig`). */
export interface DelayingQueueConfig<T> {
  /** The queue's name, the `name` label of its metrics. Default: none, and no metrics. */
  name?: string;
  /** Where the metrics of a named queue go. Default: the provider of {@link setProvider}. Ignored without `name`. */
  metricsProvider?: MetricsProvider;
  /** The clock of delays and metrics. Default: {@link realClock}. */
  clock?: Clock;
  /** The inner queue items are added to when due. Default: {@link newTyped} with this config's name, provider, clock and keyFunc. */
  queue?: TypedInterface<T>;
  /** The identity of an item, as in {@link QueueConfig.keyFunc}. */
  keyFunc?: ItemKeyFunc<T>;
}

const delayingConfigKeys = ['name', 'metricsProvider', 'clock', 'queue', 'keyFunc'] as const;

/** Makes a delaying queue (client-go's `NewTypedDelayingQueueWithConfig`). */
export function newTypedDelayingQueue<T>(
  config: DelayingQueueConfig<T> = {},
): TypedDelayingInterface<T> {
  checkOptions(config, 'config', delayingConfigKeys);
  checkFunction(config.keyFunc, 'config.keyFunc');
  return new DelayingQueue(config);
}

class DelayingQueue<T> implements TypedDelayingInterface<T> {
  readonly #inner: TypedInterface<T>;
  readonly #clock: Clock;
  readonly #keyOf: ((item: T) => unknown) | undefined;
  readonly #heap = new ReadyHeap<T>();
  readonly #waiting = new Map<unknown, WaitingEntry<T>>();
  readonly #retries: CounterMetric | undefined;
  #timer: Timer | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  constructor(config: DelayingQueueConfig<T>) {
    this.#clock = config.clock ?? realClock;
    this.#keyOf = config.keyFunc;
    const { name, metricsProvider, clock, keyFunc } = config;
    this.#inner =
      config.queue ??
      newTyped<T>({
        ...(name !== undefined && { name }),
        ...(metricsProvider !== undefined && { metricsProvider }),
        ...(clock !== undefined && { clock }),
        ...(keyFunc !== undefined && { keyFunc }),
      });
    if (name !== undefined && name !== '') {
      this.#retries = (metricsProvider ?? globalMetricsProvider()).newRetriesMetric(name);
    }
  }

  addAfter(item: T, delayMs: number): void {
    checkFinite(delayMs, 'delayMs');
    if (this.#inner.shuttingDown()) return;
    this.#retries?.inc();
    if (delayMs <= 0) {
      this.#inner.add(item);
      return;
    }
    const readyAt = this.#clock.now() + delayMs;
    const key = this.#keyOf === undefined ? item : this.#keyOf(item);
    const existing = this.#waiting.get(key);
    if (existing !== undefined) {
      if (readyAt >= existing.readyAt) return;
      existing.readyAt = readyAt;
      this.#heap.movedEarlier(existing);
    } else {
      const entry: WaitingEntry<T> = { item, readyAt, index: 0 };
      this.#waiting.set(key, entry);
      this.#heap.push(entry);
    }
    if (readyAt < this.#timerAt) this.#armTimer();
  }

  add(item: T): void {
    this.#inner.add(item);
  }

  len(): number {
    return this.#inner.len();
  }

  get(): Promise<GetResult<T>> {
    return this.#inner.get();
  }

  done(item: T): void {
    this.#inner.done(item);
  }

  shutDown(): void {
    this.#stopWaiting();
    this.#inner.shutDown();
  }

  shutDownWithDrain(): Promise<void> {
    this.#stopWaiting();
    return this.#inner.shutDownWithDrain();
  }

  shuttingDown(): boolean {
    return this.#inner.shuttingDown();
  }

  #stopWaiting(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    this.#heap.clear();
    this.#waiting.clear();
  }

  /** Adds every due item, earliest first, then sets the one timer for the next. */
  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    if (this.#inner.shuttingDown()) {
      this.#stopWaiting();
      return;
    }
    const now = this.#clock.now();
    for (let next = this.#heap.peek(); next !== undefined && next.readyAt <= now; ) {
      this.#heap.pop();
      this.#waiting.delete(this.#keyOf === undefined ? next.item : this.#keyOf(next.item));
      this.#inner.add(next.item);
      next = this.#heap.peek();
    }
    this.#armTimer();
  }

  #armTimer(): void {
    const next = this.#heap.peek();
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    if (next === undefined) return;
    this.#timerAt = next.readyAt;
    this.#timer = this.#clock.setTimer(() => this.#fire(), next.readyAt - this.#clock.now());
  }
}
