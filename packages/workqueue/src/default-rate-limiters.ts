//! Rate limiters: how long an item waits before it is retried (client-go's default_rate_limiters).

import { type Clock, InvalidArgumentError, realClock, TokenBucket } from '@ctrlkit/core';
import {
  checkDuration,
  checkFunction,
  checkInteger,
  checkMethods,
  checkOptions,
} from './internal/validate.js';
import type { ItemKeyFunc } from './queue.js';

/** Decides how long an item waits before it is retried (client-go's `TypedRateLimiter`). */
export interface TypedRateLimiter<T> {
  /** Records a failure of `item` and returns how many milliseconds it should wait. */
  when(item: T): number;
  /** Stops tracking `item`: its next failure counts as the first. */
  forget(item: T): void;
  /** How many failures of `item` are being tracked. */
  numRequeues(item: T): number;
}

/** Per-item options of the limiters that count failures per item. */
export interface ItemRateLimiterOptions<T> {
  /** The identity of an item, as in {@link QueueConfig.keyFunc}. Default: the item itself. */
  keyFunc?: ItemKeyFunc<T>;
}

/** Options of {@link newBucketRateLimiter}. */
export interface BucketRateLimiterOptions {
  /** Tokens added per second. Must be positive; `Infinity` means no limit. */
  qps: number;
  /** The bucket's size, and the number of items let through at once from full. Integer ≥ 1. */
  burst: number;
  /** The clock the bucket refills by. Default: {@link realClock}. */
  clock?: Clock;
}

/** Base delay of {@link defaultControllerRateLimiter}'s per-item backoff: 5 ms. */
export const DEFAULT_CONTROLLER_BASE_DELAY_MS = 5;
/** Cap of the default per-item backoffs: 1000 s. */
export const DEFAULT_MAX_DELAY_MS = 1000 * 1000;
/** Refill rate of {@link defaultControllerRateLimiter}'s bucket: 10 per second. */
export const DEFAULT_BUCKET_QPS = 10;
/** Size of {@link defaultControllerRateLimiter}'s bucket: 100. */
export const DEFAULT_BUCKET_BURST = 100;
/** Base delay of {@link defaultItemBasedRateLimiter}: 1 ms. */
export const DEFAULT_ITEM_BASED_BASE_DELAY_MS = 1;

const itemOptionKeys = ['keyFunc'] as const;

/** The methods every {@link TypedRateLimiter} has. */
export const rateLimiterMethods = ['when', 'forget', 'numRequeues'] as const;

/**
 * Waits `baseDelayMs × 2^failures` for an item, capped at `maxDelayMs`
 * (client-go's `ItemExponentialFailureRateLimiter`).
 */
export function newItemExponentialFailureRateLimiter<T>(
  baseDelayMs: number,
  maxDelayMs: number,
  options?: ItemRateLimiterOptions<T>,
): TypedRateLimiter<T> {
  checkDuration(baseDelayMs, 'baseDelayMs');
  checkDuration(maxDelayMs, 'maxDelayMs');
  const failures = new FailureCounts<T>(options);
  return {
    when(item) {
      const exp = failures.increment(item) - 1;
      const backoff = baseDelayMs * 2 ** exp;
      return backoff > maxDelayMs || !Number.isFinite(backoff) ? maxDelayMs : backoff;
    },
    forget: (item) => failures.forget(item),
    numRequeues: (item) => failures.count(item),
  };
}

/**
 * Waits `fastDelayMs` for an item's first `maxFastAttempts` failures, then `slowDelayMs`
 * (client-go's `ItemFastSlowRateLimiter`).
 */
export function newItemFastSlowRateLimiter<T>(
  fastDelayMs: number,
  slowDelayMs: number,
  maxFastAttempts: number,
  options?: ItemRateLimiterOptions<T>,
): TypedRateLimiter<T> {
  checkDuration(fastDelayMs, 'fastDelayMs');
  checkDuration(slowDelayMs, 'slowDelayMs');
  checkInteger(maxFastAttempts, 'maxFastAttempts', 0);
  const failures = new FailureCounts<T>(options);
  return {
    when: (item) => (failures.increment(item) <= maxFastAttempts ? fastDelayMs : slowDelayMs),
    forget: (item) => failures.forget(item),
    numRequeues: (item) => failures.count(item),
  };
}

/**
 * One token bucket shared by every item: an item waits until a token is free
 * (client-go's `BucketRateLimiter`). Starts full. Tracks no item: `numRequeues` is 0.
 */
export function newBucketRateLimiter<T>(options: BucketRateLimiterOptions): TypedRateLimiter<T> {
  checkOptions(options, 'options', ['qps', 'burst', 'clock']);
  if (options === undefined)
    throw new InvalidArgumentError('options', 'qps and burst are required');
  const { qps, burst } = options;
  if (typeof qps !== 'number' || Number.isNaN(qps) || qps <= 0) {
    throw new InvalidArgumentError('options.qps', `expected a number > 0, got ${qps}`);
  }
  checkInteger(burst, 'options.burst', 1);
  const bucket = new TokenBucket(qps, burst, options.clock ?? realClock);
  return {
    when: () => bucket.reserve(),
    forget: () => {},
    numRequeues: () => 0,
  };
}

/**
 * Asks every limiter (each records the failure) and waits the longest of their answers
 * (client-go's `MaxOfRateLimiter`).
 */
export function newMaxOfRateLimiter<T>(...limiters: TypedRateLimiter<T>[]): TypedRateLimiter<T> {
  if (limiters.length === 0) throw new InvalidArgumentError('limiters', 'at least one is needed');
  limiters.forEach((limiter, i) => {
    checkMethods(limiter, `limiters[${i}]`, rateLimiterMethods);
  });
  return {
    when(item) {
      let longest = 0;
      for (const limiter of limiters) longest = Math.max(longest, limiter.when(item));
      return longest;
    },
    forget(item) {
      for (const limiter of limiters) limiter.forget(item);
    },
    numRequeues(item) {
      let most = 0;
      for (const limiter of limiters) most = Math.max(most, limiter.numRequeues(item));
      return most;
    },
  };
}

/** Caps another limiter's delays at `maxDelayMs` (client-go's `WithMaxWaitRateLimiter`). */
export function newWithMaxWaitRateLimiter<T>(
  limiter: TypedRateLimiter<T>,
  maxDelayMs: number,
): TypedRateLimiter<T> {
  checkMethods(limiter, 'limiter', rateLimiterMethods);
  checkDuration(maxDelayMs, 'maxDelayMs');
  return {
    when: (item) => Math.min(limiter.when(item), maxDelayMs),
    forget: (item) => limiter.forget(item),
    numRequeues: (item) => limiter.numRequeues(item),
  };
}

/**
 * The limiter controllers use unless told otherwise: the longer of a per-item exponential
 * backoff (5 ms doubling to 1000 s) and a shared bucket (10 per second, burst 100).
 * client-go's `DefaultTypedControllerRateLimiter`.
 */
export function defaultControllerRateLimiter<T>(
  options: ItemRateLimiterOptions<T> & { clock?: Clock } = {},
): TypedRateLimiter<T> {
  checkOptions(options, 'options', ['keyFunc', 'clock']);
  const { clock, ...itemOptions } = options;
  return newMaxOfRateLimiter<T>(
    newItemExponentialFailureRateLimiter(
      DEFAULT_CONTROLLER_BASE_DELAY_MS,
      DEFAULT_MAX_DELAY_MS,
      itemOptions,
    ),
    newBucketRateLimiter({
      qps: DEFAULT_BUCKET_QPS,
      burst: DEFAULT_BUCKET_BURST,
      ...(clock !== undefined && { clock }),
    }),
  );
}

/** A per-item exponential backoff from 1 ms to 1000 s (client-go's `DefaultTypedItemBasedRateLimiter`). */
export function defaultItemBasedRateLimiter<T>(
  options?: ItemRateLimiterOptions<T>,
): TypedRateLimiter<T> {
  return newItemExponentialFailureRateLimiter(
    DEFAULT_ITEM_BASED_BASE_DELAY_MS,
    DEFAULT_MAX_DELAY_MS,
    options,
  );
}

/** Failure counts per item key. */
class FailureCounts<T> {
  readonly #counts = new Map<unknown, number>();
  readonly #keyOf: ((item: T) => unknown) | undefined;

  constructor(options: ItemRateLimiterOptions<T> | undefined) {
    checkOptions(options, 'options', itemOptionKeys);
    checkFunction(options?.keyFunc, 'options.keyFunc');
    this.#keyOf = options?.keyFunc;
  }

  /** Records one more failure and returns the new count. */
  increment(item: T): number {
    const key = this.#keyOf === undefined ? item : this.#keyOf(item);
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count;
  }

  count(item: T): number {
    return this.#counts.get(this.#keyOf === undefined ? item : this.#keyOf(item)) ?? 0;
  }

  forget(item: T): void {
    this.#counts.delete(this.#keyOf === undefined ? item : this.#keyOf(item));
  }
}
