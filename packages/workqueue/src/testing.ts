//! Test helpers: a fake clock, and a metrics provider that records what it is told.

import * as coreTesting from '@ctrlkit/core/testing';

/** @deprecated Import from `@ctrlkit/core/testing`; this re-export goes in the next minor version. */
export const FakeClock: typeof coreTesting.FakeClock = coreTesting.FakeClock;
/** @deprecated Import from `@ctrlkit/core/testing`; this re-export goes in the next minor version. */
export type FakeClock = coreTesting.FakeClock;
/** @deprecated Import from `@ctrlkit/core/testing`; this re-export goes in the next minor version. */
export const DEFAULT_FAKE_CLOCK_START_MS: number = coreTesting.DEFAULT_FAKE_CLOCK_START_MS;
export {
  type RecordedQueueMetrics,
  RecordingMetricsProvider,
} from './testing/recording-metrics-provider.js';
