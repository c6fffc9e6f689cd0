//! A leader elector's options, client-go's defaults, and their check at construction.

import { type Clock, InvalidArgumentError, rejectRenamedOptions } from '@ctrlkit/core';
import type { Logger } from '../logger.js';
import type { ResourceLock } from './resource-lock.js';

/** client-go's default lease duration: 15 s. */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
/** client-go's default renew deadline: 10 s. */
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
/** client-go's default retry period: 2 s. */
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
/** client-go's `JitterFactor`: waits between acquire attempts are `retryPeriodMs × (1 + rand × 1.2)`. */
export const JITTER_FACTOR = 1.2;

/** The callbacks of a `LeaderElector` (client-go's `LeaderCallbacks`). */
export interface LeaderCallbacks {
  /**
   * Called once this candidate becomes leader. `signal` aborts when it stops leading (lost
   * lease or `run`'s signal aborted): stop the work then. A returned promise is not awaited;
   * a rejection or throw is logged.
   */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /**
   * Called when `run` returns, as client-go does: also when it never led (aborted while
   * acquiring). Errors are logged.
   */
  onStoppedLeading(): void;
  /** Called when the observed leader changes, with the new holder (`''` once it is released). */
  onNewLeader?(identity: string): void;
}

/** Options of `LeaderElector` (client-go's `LeaderElectionConfig`). */
export interface LeaderElectorOptions {
  /** The lock to compete for, e.g. a {@link LeaseLock}. Its `identity()` must not be empty. */
  lock: ResourceLock;
  /**
   * How long, in ms, non-leaders wait after the last observed change of the record before
   * taking over. It is written into the record in whole seconds, rounded up, and candidates
   * go by the duration in the record they observe, as client-go does.
   * Default {@link DEFAULT_LEASE_DURATION_MS} (15 s). Must be greater than `renewDeadlineMs`.
   */
  leaseDurationMs?: number;
  /**
   * How long, in ms, the leader keeps retrying a failed renewal before it gives up leading.
   * Default {@link DEFAULT_RENEW_DEADLINE_MS} (10 s). Must be greater than
   * `JITTER_FACTOR × retryPeriodMs`.
   */
  renewDeadlineMs?: number;
  /** How long, in ms, to wait between attempts. Default {@link DEFAULT_RETRY_PERIOD_MS} (2 s). */
  retryPeriodMs?: number;
  /** The callbacks. */
  callbacks: LeaderCallbacks;
  /**
   * Release the lock when `run`'s signal aborts (client-go's `ReleaseOnCancel`), by writing an
   * empty holder, so a successor takes over at once instead of after `leaseDurationMs`.
   * Default `true` (client-go's default is false). The work behind `onStartedLeading` must stop
   * when its signal aborts, as a successor may start right away.
   */
  releaseOnCancel?: boolean;
  /** A name for logs, e.g. the controller's name. Default: the lock's `describe()`. */
  name?: string;
  /** The clock for every timing decision and the times written into records. Default: the real clock. */
  clock?: Clock;
  /** A random number in [0, 1), for jitter. Default `Math.random`. */
  random?: () => number;
  /** Where to log. Default: nowhere. */
  logger?: Logger;
}

/** The options renamed to say their unit, by old name. */
const RENAMED_OPTIONS = {
  leaseDuration: 'leaseDurationMs',
  renewDeadline: 'renewDeadlineMs',
  retryPeriod: 'retryPeriodMs',
} as const;

function invalid(field: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(field, problem);
}

/**
 * Throws an {@link InvalidArgumentError} naming the first invalid option (or the new name of a
 * renamed one); returns the timings with their defaults.
 */
export function checkLeaderElectorOptions(options: LeaderElectorOptions): {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
} {
  rejectRenamedOptions(options, RENAMED_OPTIONS);
  const leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
  const renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
  const retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
  for (const [field, value] of [
    ['leaseDurationMs', leaseDurationMs],
    ['renewDeadlineMs', renewDeadlineMs],
    ['retryPeriodMs', retryPeriodMs],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw invalid(field, `must be a finite number of ms > 0, got ${String(value)}`);
    }
  }
  if (!(leaseDurationMs > renewDeadlineMs)) {
    throw invalid(
      'leaseDurationMs',
      `must be greater than renewDeadlineMs (${renewDeadlineMs} ms), got ${leaseDurationMs} ms`,
    );
  }
  if (!(renewDeadlineMs > JITTER_FACTOR * retryPeriodMs)) {
    throw invalid(
      'renewDeadlineMs',
      `must be greater than ${JITTER_FACTOR} × retryPeriodMs (${JITTER_FACTOR * retryPeriodMs} ms), got ${renewDeadlineMs} ms`,
    );
  }
  if (options.lock === undefined || options.lock === null) {
    throw invalid('lock', 'is required');
  }
  const identity = options.lock.identity();
  if (typeof identity !== 'string' || identity === '') {
    throw invalid('lock.identity', 'must not be empty');
  }
  if (
    options.callbacks === undefined ||
    typeof options.callbacks.onStartedLeading !== 'function' ||
    typeof options.callbacks.onStoppedLeading !== 'function'
  ) {
    throw invalid('callbacks', 'onStartedLeading and onStoppedLeading are required');
  }
  return { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
}
