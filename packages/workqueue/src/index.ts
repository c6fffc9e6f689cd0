//! @ctrlkit/workqueue: client-go's work queue for TypeScript.

export { type Clock, realClock, sleep, type Timer } from './clock.js';
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
export { InvalidArgumentError } from './invalid-argument-error.js';
export { type Logger, noopLogger } from './logger.js';
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
