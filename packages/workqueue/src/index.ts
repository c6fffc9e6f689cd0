//! @ctrlkit/workqueue: client-go's work queue for TypeScript.

import * as core from '@ctrlkit/core';

export {
  type BucketRateLimiterOptions,
  DEFAULT_BUCKET_BURST,
  DEFAULT_BUCKET_QPS,
  DEFAULT_CONTROLLER_BASE_DELAY_MS,
  DEFAULT_ITEM_BASED_BASE_DELAY_MS,
  DEFAULT_MAX_DELAY_MS,
  defaultControllerRateLimiter,
  defaultItemBasedRateLimiter,
  type ItemRateLimiterOptions,
  newBucketRateLimiter,
  newItemExponentialFailureRateLimiter,
  newItemFastSlowRateLimiter,
  newMaxOfRateLimiter,
  newWithMaxWaitRateLimiter,
  type TypedRateLimiter,
} from './default-rate-limiters.js';
export {
  type DelayingQueueConfig,
  newTypedDelayingQueue,
  type TypedDelayingInterface,
} from './delaying-queue.js';
export { MaxRetriesError } from './max-retries-error.js';
export {
  type CounterMetric,
  type GaugeMetric,
  globalMetricsProvider,
  type HistogramMetric,
  type MetricsProvider,
  noopMetricsProvider,
  type SettableGaugeMetric,
  setProvider,
  UNFINISHED_WORK_UPDATE_PERIOD_MS,
} from './metrics.js';
export { type ParallelizeOptions, parallelizeUntil } from './parallelizer.js';
export {
  type GetResult,
  type ItemKeyFunc,
  type KeyFunc,
  newTyped,
  type Queue,
  type QueueConfig,
  type TypedInterface,
} from './queue.js';
export {
  newTypedRateLimitingQueue,
  type RateLimitingQueueConfig,
  type TypedRateLimitingInterface,
} from './rate-limiting-queue.js';
export {
  defaultRetryFunc,
  MaxRetries,
  runWorkers,
  type ShouldRetryFunc,
  type WorkerHandler,
  type WorkersOptions,
} from './workers.js';

/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export type Clock = core.Clock;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export type Timer = core.Timer;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export type Logger = core.Logger;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export const realClock: core.Clock = core.realClock;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export const sleep: typeof core.sleep = core.sleep;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export const noopLogger: core.Logger = core.noopLogger;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export const InvalidArgumentError: typeof core.InvalidArgumentError = core.InvalidArgumentError;
/** @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version. */
export type InvalidArgumentError = core.InvalidArgumentError;
