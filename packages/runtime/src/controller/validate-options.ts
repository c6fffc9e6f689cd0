//! Checks a controller's options at construction, naming the field at fault.

import { InvalidArgumentError } from '@ctrlkit/core';
import type { ControllerOptions } from './controller.js';

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
