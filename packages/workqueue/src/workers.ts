//! Async workers over a rate-limited queue, with virtual-kubelet's retry policy.

import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
} from '@ctrlkit/core';
import { checkFunction, checkInteger, checkOptions } from './internal/validate.js';
import { MaxRetriesError } from './max-retries-error.js';
import type { ItemKeyFunc } from './queue.js';
import type { TypedRateLimitingInterface } from './rate-limiting-queue.js';

/** How many times {@link defaultRetryFunc} lets an item be tried: 20, as in virtual-kubelet. */
export const MaxRetries = 20;

/**
 * Decides what happens to an item whose handler failed (virtual-kubelet's `ShouldRetryFunc`).
 * Return a delay in milliseconds to retry after it, `undefined` to retry after the rate
 * limiter's delay, or throw to drop the item (it is forgotten and the error logged).
 *
 * @param signal - the workers' signal
 * @param item - the item that failed
 * @param timesTried - how many times the handler has run for it, this failure included
 * @param originallyAdded - when (clock milliseconds) the first of those tries started
 * @param error - what the handler threw
 */
export type ShouldRetryFunc<T> = (
  signal: AbortSignal,
  item: T,
  timesTried: number,
  originallyAdded: number,
  error: unknown,
) => number | undefined;

/** Retries with the rate limiter until an item has been tried {@link MaxRetries} times, then drops it. */
export const defaultRetryFunc: ShouldRetryFunc<unknown> = (_s, _i, timesTried, _o, error) => {
  if (timesTried < MaxRetries) return undefined;
  throw new MaxRetriesError(timesTried, MaxRetries, { cause: error });
};

/** Handles one item; throwing (or rejecting) asks the retry policy what to do. */
export type WorkerHandler<T> = (item: T, signal: AbortSignal) => Promise<void> | void;

/** Options of {@link runWorkers}. */
export interface WorkersOptions<T> {
  /** How many items are handled at once. An integer ≥ 1. */
  workers: number;
  /** Stops the workers: the queue is shut down with drain, and queued items are still handled. */
  signal: AbortSignal;
  /** The retry policy. Default: {@link defaultRetryFunc}. */
  shouldRetry?: ShouldRetryFunc<T>;
  /** Where dropped items are reported. Default: no logging. */
  logger?: Logger;
  /** The clock of `originallyAdded`. Default: {@link realClock}. */
  clock?: Clock;
  /** The identity of an item, as in {@link QueueConfig.keyFunc}. Default: the item itself. */
  keyFunc?: ItemKeyFunc<T>;
}

const workersOptionKeys = [
  'workers',
  'signal',
  'shouldRetry',
  'logger',
  'clock',
  'keyFunc',
] as const;

/**
 * Runs `options.workers` async workers that take items from `queue` and pass them to
 * `handler` until `options.signal` fires. On success the item is forgotten by the rate
 * limiter; on failure the retry policy requeues or drops it. Resolves once the queue is
 * shut down and every worker has finished its item.
 */
export async function runWorkers<T>(
  queue: TypedRateLimitingInterface<T>,
  handler: WorkerHandler<T>,
  options: WorkersOptions<T>,
): Promise<void> {
  checkOptions(options, 'options', workersOptionKeys);
  checkFunction(handler, 'handler');
  checkInteger(options?.workers, 'options.workers', 1);
  if (!(options.signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('options.signal', 'expected an AbortSignal');
  }
  checkFunction(options.shouldRetry, 'options.shouldRetry');
  checkFunction(options.keyFunc, 'options.keyFunc');
  const { signal, workers } = options;
  const shouldRetry = options.shouldRetry ?? defaultRetryFunc;
  const logger = options.logger ?? noopLogger;
  const clock = options.clock ?? realClock;
  const keyOf = options.keyFunc ?? ((item: T) => item);
  /** Tries of each failing item since it last succeeded or was dropped. */
  const attempts = new Map<unknown, { originallyAdded: number; timesTried: number }>();

  let drained: Promise<void> | undefined;
  const stop = () => {
    drained ??= queue.shutDownWithDrain();
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });

  const handle = async (item: T): Promise<void> => {
    const key = keyOf(item);
    let attempt = attempts.get(key);
    if (attempt === undefined) {
      attempt = { originallyAdded: clock.now(), timesTried: 0 };
      attempts.set(key, attempt);
    }
    attempt.timesTried++;
    try {
      await handler(item, signal);
    } catch (error) {
      let delay: number | undefined;
      try {
        delay = shouldRetry(signal, item, attempt.timesTried, attempt.originallyAdded, error);
      } catch (dropped) {
        queue.forget(item);
        attempts.delete(key);
        logger.error(
          { item, timesTried: attempt.timesTried, err: dropped },
          'dropping item: the retry policy gave up',
        );
        return;
      }
      if (delay === undefined) queue.addRateLimited(item);
      else queue.addAfter(item, delay);
      return;
    }
    queue.forget(item);
    attempts.delete(key);
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) return;
      try {
        await handle(next.item);
      } finally {
        queue.done(next.item);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: workers }, worker));
    await drained;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
