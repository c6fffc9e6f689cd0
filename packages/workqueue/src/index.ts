/**
 * `@ctrlkit/workqueue`: client-go's `util/workqueue` for TypeScript, the de-duplicating,
 * delaying, rate-limited queue every controller is built around. One concept, one root; the
 * prom-client adapter (an optional peer) is `@ctrlkit/workqueue/prometheus`, test helpers
 * are `@ctrlkit/workqueue/testing`.
 *
 * - **Queues**, one layer each: {@link newTyped} (de-duplicating, one worker per item at a
 *   time), {@link newTypedDelayingQueue} (+ `addAfter`), {@link newTypedRateLimitingQueue}
 *   (+ `addRateLimited`, `forget`).
 * - **Rate limiters**: {@link defaultControllerRateLimiter},
 *   {@link newItemExponentialFailureRateLimiter}, {@link newBucketRateLimiter},
 *   {@link newMaxOfRateLimiter}, … ({@link TypedRateLimiter}).
 * - **Workers**: {@link runWorkers} with a retry policy ({@link defaultRetryFunc},
 *   {@link MaxRetriesError}); {@link parallelizeUntil}.
 * - **Metrics**: {@link MetricsProvider}, {@link setProvider}, {@link noopMetricsProvider}.
 *
 * `Clock`, `realClock`, `sleep`, `Logger`, `noopLogger` and `InvalidArgumentError` here are
 * deprecated re-exports of `@ctrlkit/core`'s.
 *
 * A first program:
 * ```ts
 * import { defaultControllerRateLimiter, newTypedRateLimitingQueue, runWorkers } from '@ctrlkit/workqueue';
 *
 * const queue = newTypedRateLimitingQueue(defaultControllerRateLimiter<string>(), { name: 'pods' });
 * const running = runWorkers(queue, async (key) => reconcile(key), { workers: 4, signal });
 * queue.add('default/nginx'); // from your informer's event handlers
 * await running; // after `signal` aborts and handed-out items are done
 * ```
 *
 * @packageDocumentation
 */

export type {
  /**
   * `Clock` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  Clock,
  /**
   * `Logger` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  Logger,
  /**
   * `Timer` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  Timer,
} from '@ctrlkit/core';
export {
  /**
   * `InvalidArgumentError` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  InvalidArgumentError,
  /**
   * `noopLogger` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  noopLogger,
  /**
   * `realClock` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  realClock,
  /**
   * `sleep` of `@ctrlkit/core`, re-exported.
   * @deprecated Import from `@ctrlkit/core`; this re-export goes in the next minor version.
   */
  sleep,
} from '@ctrlkit/core';
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
