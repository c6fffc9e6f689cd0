//! @ctrlkit/workqueue: client-go's work queue for TypeScript.

export { type Clock, realClock, type Timer } from './clock.js';
export {
  type BucketRateLimiterOptions,
  defaultBucketBurst,
  defaultBucketQps,
  defaultControllerBaseDelay,
  defaultControllerRateLimiter,
  defaultItemBasedBaseDelay,
  defaultItemBasedRateLimiter,
  defaultMaxDelay,
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
  unfinishedWorkUpdatePeriod,
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
