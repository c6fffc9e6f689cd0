//! Test helpers: a fake clock, and a metrics provider that records what it is told.

export { DEFAULT_FAKE_CLOCK_START_MS, FakeClock } from './testing/fake-clock.js';
export {
  type RecordedQueueMetrics,
  RecordingMetricsProvider,
} from './testing/recording-metrics-provider.js';
