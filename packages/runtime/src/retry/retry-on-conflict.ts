//! Retrying a write that lost an optimistic-concurrency race (client-go's `util/retry`).

import { type Clock, InvalidArgumentError, isConflict, realClock, sleep } from '@ctrlkit/core';

/**
 * How often and how long to retry (apimachinery's `wait.Backoff`): up to `steps`
 * attempts; the wait before attempt n+1 is `durationMs × factor^(n-1)`, capped at `capMs`,
 * plus up to `jitter ×` that wait at random.
 */
export interface RetryBackoff {
  /** The first wait, in ms. */
  durationMs: number;
  /** Each wait is the previous one times this; 0 or 1 keeps it constant. */
  factor: number;
  /** Each wait gets up to `jitter × wait` more at random; 0 for none. */
  jitter: number;
  /** The number of attempts, ≥ 1. */
  steps: number;
  /**
   * The largest base wait, in ms. As in apimachinery, once the next base would exceed it,
   * the attempts end after the current wait. Default: no cap.
   */
  capMs?: number;
}

/**
 * client-go's `retry.DefaultRetry`, for conflicts between clients changing the same
 * object: 5 attempts, 10 ms apart, jitter 0.1.
 */
export const DEFAULT_RETRY: Readonly<RetryBackoff> = Object.freeze({
  steps: 5,
  durationMs: 10,
  factor: 1,
  jitter: 0.1,
});

/**
 * client-go's `retry.DefaultBackoff`, for a client changing an object that controllers
 * also manage: 4 attempts, waits of 10, 50 and 250 ms, jitter 0.1.
 */
export const DEFAULT_BACKOFF: Readonly<RetryBackoff> = Object.freeze({
  steps: 4,
  durationMs: 10,
  factor: 5,
  jitter: 0.1,
});

/** Options of {@link retryOnConflict} and {@link onError}. */
export interface RetryOptions {
  /** The clock the waits run on. Default: the real clock. */
  clock?: Clock;
  /** Randomness in `[0, 1)` for the jitter. Default `Math.random`. */
  random?: () => number;
  /** Stops retrying: the wait ends and the last error is thrown. Default: none. */
  signal?: AbortSignal;
}

/**
 * Calls `fn` until it succeeds, retrying while it throws a conflict ({@link isConflict}),
 * as client-go's `retry.RetryOnConflict`: `fn` should read the object afresh, change it
 * and write it, and throw the write's error unwrapped. After `backoff.steps` attempts, or
 * on any other error, the error is thrown. Returns what `fn` returned.
 *
 * ```ts
 * await retryOnConflict(DEFAULT_RETRY, async () => {
 *   const cm = await core.readNamespacedConfigMap({ namespace, name });
 *   cm.data = { ...cm.data, count: String(Number(cm.data?.count ?? 0) + 1) };
 *   return core.replaceNamespacedConfigMap({ namespace, name, body: cm }); // 409 if it changed
 * });
 * ```
 */
export function retryOnConflict<R>(
  backoff: RetryBackoff,
  fn: () => Promise<R> | R,
  options: RetryOptions = {},
): Promise<R> {
  return onError(backoff, isConflict, fn, options);
}

/**
 * Calls `fn` until it succeeds, retrying while `retriable(error)` is true, with the waits
 * of `backoff` (client-go's `retry.OnError`). Throws `fn`'s last error after
 * `backoff.steps` attempts, its first non-retriable error at once, and the last error when
 * `options.signal` aborts.
 *
 * Errors: `InvalidArgumentError` for a malformed `backoff` (naming the field).
 */
export async function onError<R>(
  backoff: RetryBackoff,
  retriable: (error: unknown) => boolean,
  fn: () => Promise<R> | R,
  options: RetryOptions = {},
): Promise<R> {
  checkBackoff(backoff);
  const clock = options.clock ?? realClock;
  const random = options.random ?? Math.random;
  const signal = options.signal ?? new AbortController().signal;
  let { steps, durationMs } = backoff;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (!retriable(error) || steps <= 1 || signal.aborted) throw error;
      // apimachinery's Backoff.Step(): this wait, then the next one's base.
      steps--;
      let wait = durationMs;
      if (backoff.factor !== 0) {
        durationMs *= backoff.factor;
        if (backoff.capMs !== undefined && backoff.capMs > 0 && durationMs > backoff.capMs) {
          durationMs = backoff.capMs;
          steps = 0; // as apimachinery: reaching the cap ends the attempts after this wait
        }
      }
      if (backoff.jitter > 0) wait += random() * backoff.jitter * wait;
      await sleep(clock, wait, signal);
      if (signal.aborted || steps === 0) throw error;
    }
  }
}

function checkBackoff(backoff: RetryBackoff): void {
  if (typeof backoff !== 'object' || backoff === null) {
    throw new InvalidArgumentError('backoff', 'must be an object such as DEFAULT_RETRY');
  }
  const { steps, durationMs, factor, jitter, capMs } = backoff;
  if (!Number.isInteger(steps) || steps < 1) {
    throw new InvalidArgumentError('backoff.steps', `must be an integer ≥ 1, got ${String(steps)}`);
  }
  for (const [field, value] of [
    ['backoff.durationMs', durationMs],
    ['backoff.factor', factor],
    ['backoff.jitter', jitter],
  ] as const) {
    if (!Number.isFinite(value) || value < 0) {
      throw new InvalidArgumentError(field, `must be a finite number ≥ 0, got ${String(value)}`);
    }
  }
  if (capMs !== undefined && (!Number.isFinite(capMs) || capMs < 0)) {
    throw new InvalidArgumentError(
      'backoff.capMs',
      `must be a finite number ≥ 0, got ${String(capMs)}`,
    );
  }
}
