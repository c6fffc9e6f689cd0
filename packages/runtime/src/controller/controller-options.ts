//! A controller's options, their defaults, and their check at construction (naming the field at fault).

import type { Clock } from '@ctrlkit/core';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { MetricsProvider, TypedRateLimiter } from '@ctrlkit/workqueue';
import type { Logger } from '../logger.js';
import type { ReconcileMetrics } from '../metrics/reconcile-metrics.js';
import type { Reconciler } from './reconciler.js';

/** Options of `Controller`. */
export interface ControllerOptions {
  /** The controller's name: the queue's metrics label and the logs' `controller` field. Required. */
  name: string;
  /** The reconciler. Required. */
  reconcile: Reconciler;
  /** How many keys are reconciled at once (each key by one worker at a time). Default {@link DEFAULT_MAX_CONCURRENT_RECONCILES}. */
  maxConcurrentReconciles?: number;
  /** Paces retries. Default: `defaultControllerRateLimiter()` (5 ms doubling to 1000 s, and 10 qps burst 100 overall). */
  rateLimiter?: TypedRateLimiter<string>;
  /** Where the queue's metrics go. Default: the workqueue's global provider, or the `Manager`'s once added to one. */
  metricsProvider?: MetricsProvider;
  /** Where reconcile metrics go. Default: none, or the `Manager`'s (`controller_runtime_*`) once added to one. */
  reconcileMetrics?: ReconcileMetrics;
  /** The clock of the queue and the sync wait. Default: the real clock. */
  clock?: Clock;
  /** Where reconcile errors are reported. Default: no logging. */
  logger?: Logger;
  /** How long `run` waits for the watched informers to sync, in ms. Default {@link DEFAULT_CACHE_SYNC_TIMEOUT_MS}. */
  cacheSyncTimeoutMs?: number;
}

/** Keys reconciled at once by default: 1, as in controller-runtime. */
export const DEFAULT_MAX_CONCURRENT_RECONCILES = 1;
/** How long `run` waits for caches by default: 2 minutes, as in controller-runtime. */
export const DEFAULT_CACHE_SYNC_TIMEOUT_MS = 120_000;

const known = new Set([
  'name',
  'reconcile',
  'maxConcurrentReconciles',
  'rateLimiter',
  'metricsProvider',
  'reconcileMetrics',
  'clock',
  'logger',
  'cacheSyncTimeoutMs',
]);

/** Throws {@link InvalidArgumentError} for the first invalid field of `options`. */
export function checkControllerOptions(options: ControllerOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'expected an options object');
  }
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      throw new InvalidArgumentError(
        `options.${key}`,
        `unknown option (known: ${[...known].join(', ')})`,
      );
    }
  }
  if (typeof options.name !== 'string' || options.name === '') {
    throw new InvalidArgumentError('options.name', 'expected a non-empty string');
  }
  if (typeof options.reconcile !== 'function') {
    throw new InvalidArgumentError('options.reconcile', 'expected a function');
  }
  const workers = options.maxConcurrentReconciles;
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1)) {
    throw new InvalidArgumentError(
      'options.maxConcurrentReconciles',
      `expected an integer >= 1, got ${workers}`,
    );
  }
  const timeout = options.cacheSyncTimeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new InvalidArgumentError(
      'options.cacheSyncTimeoutMs',
      `expected milliseconds > 0, got ${timeout}`,
    );
  }
}
