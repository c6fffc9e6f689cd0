/**
 * `@ctrlkit/workqueue/testing`: {@link RecordingMetricsProvider}, a metrics provider that
 * keeps each named queue's values in memory for assertions. `FakeClock` here is a
 * deprecated re-export of `@ctrlkit/core/testing`'s.
 *
 * A first test:
 * ```ts
 * import { FakeClock } from '@ctrlkit/core/testing';
 * import { newTypedDelayingQueue } from '@ctrlkit/workqueue';
 * import { RecordingMetricsProvider } from '@ctrlkit/workqueue/testing';
 *
 * const metrics = new RecordingMetricsProvider();
 * const clock = new FakeClock();
 * const queue = newTypedDelayingQueue<string>({ name: 'q', metricsProvider: metrics, clock });
 * queue.addAfter('a', 1_000);
 * clock.step(1_000);
 * metrics.get('q').adds; // 1
 * ```
 *
 * @packageDocumentation
 */

import * as coreTesting from '@ctrlkit/core/testing';

/**
 * `FakeClock` of `@ctrlkit/core/testing`, re-exported.
 * @deprecated Import from `@ctrlkit/core/testing`; this re-export goes in the next minor version.
 */
export const FakeClock: typeof coreTesting.FakeClock = coreTesting.FakeClock;
/**
 * `FakeClock` of `@ctrlkit/core/testing`, re-exported.
 * @deprecated Import from `@ctrlkit/core/testing`; this re-export goes in the next minor version.
 */
export type FakeClock = coreTesting.FakeClock;
/**
 * `DEFAULT_FAKE_CLOCK_START_MS` of `@ctrlkit/core/testing`, re-exported.
 * @deprecated Import from `@ctrlkit/core/testing`; this re-export goes in the next minor version.
 */
export const DEFAULT_FAKE_CLOCK_START_MS: number = coreTesting.DEFAULT_FAKE_CLOCK_START_MS;
export {
  type RecordedQueueMetrics,
  RecordingMetricsProvider,
} from './testing/recording-metrics-provider.js';
