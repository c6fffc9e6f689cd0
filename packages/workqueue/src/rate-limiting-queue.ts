//! The rate-limited queue: a delaying queue that asks a rate limiter how long to wait.

import type { Clock } from '@ctrlkit/core';
import { rateLimiterMethods, type TypedRateLimiter } from './default-rate-limiters.js';
import { newTypedDelayingQueue, type TypedDelayingInterface } from './delaying-queue.js';
import { checkMethods, checkOptions } from './internal/validate.js';
import type { MetricsProvider } from './metrics.js';
import type { GetResult, ItemKeyFunc } from './queue.js';

/** A delaying queue whose retries are paced by a rate limiter (client-go's `TypedRateLimitingInterface`). */
export interface TypedRateLimitingInterface<T> extends TypedDelayingInterface<T> {
  /** Adds `item` after the delay the rate limiter gives it (recording one more failure). */
  addRateLimited(item: T): void;
  /** Resets the rate limiter's failure count of `item`; does not remove it from the queue. */
  forget(item: T): void;
  /** How many times `item` has been requeued by the rate limiter since it was last forgotten. */
  numRequeues(item: T): number;
}

/** Options of {@link newTypedRateLimitingQueue} (client-go's `TypedRateLimitingQueueConfig`). */
export interface RateLimitingQueueConfig<T> {
  /** The queue's name, the `name` label of its metrics. Default: none, and no metrics. */
  name?: string;
  /** Where the metrics of a named queue go. Default: the provider of {@link setProvider}. Ignored without `name`. */
  metricsProvider?: MetricsProvider;
  /** The clock of delays and metrics. Default: {@link realClock}. */
  clock?: Clock;
  /** The delaying queue underneath. Default: {@link newTypedDelayingQueue} with this config. */
  delayingQueue?: TypedDelayingInterface<T>;
  /** The identity of an item, as in {@link QueueConfig.keyFunc}. */
  keyFunc?: ItemKeyFunc<T>;
}

const rateLimitingConfigKeys = [
  'name',
  'metricsProvider',
  'clock',
  'delayingQueue',
  'keyFunc',
] as const;

/** Makes a rate-limited queue (client-go's `NewTypedRateLimitingQueueWithConfig`). */
export function newTypedRateLimitingQueue<T>(
  rateLimiter: TypedRateLimiter<T>,
  config: RateLimitingQueueConfig<T> = {},
): TypedRateLimitingInterface<T> {
  checkMethods(rateLimiter, 'rateLimiter', rateLimiterMethods);
  checkOptions(config, 'config', rateLimitingConfigKeys);
  const { delayingQueue, ...delayingConfig } = config;
  return new RateLimitingQueue(
    rateLimiter,
    delayingQueue ?? newTypedDelayingQueue<T>(delayingConfig),
  );
}

class RateLimitingQueue<T> implements TypedRateLimitingInterface<T> {
  readonly #limiter: TypedRateLimiter<T>;
  readonly #queue: TypedDelayingInterface<T>;

  constructor(limiter: TypedRateLimiter<T>, queue: TypedDelayingInterface<T>) {
    this.#limiter = limiter;
    this.#queue = queue;
  }

  addRateLimited(item: T): void {
    this.#queue.addAfter(item, this.#limiter.when(item));
  }

  forget(item: T): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }

  addAfter(item: T, delayMs: number): void {
    this.#queue.addAfter(item, delayMs);
  }

  add(item: T): void {
    this.#queue.add(item);
  }

  len(): number {
    return this.#queue.len();
  }

  get(): Promise<GetResult<T>> {
    return this.#queue.get();
  }

  done(item: T): void {
    this.#queue.done(item);
  }

  shutDown(): void {
    this.#queue.shutDown();
  }

  shutDownWithDrain(): Promise<void> {
    return this.#queue.shutDownWithDrain();
  }

  shuttingDown(): boolean {
    return this.#queue.shuttingDown();
  }
}
