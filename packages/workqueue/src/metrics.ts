//! The workqueue metric set, behind a provider interface with a no-op default.

/** A gauge that moves by one. */
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

/** A gauge that is set to a value. */
export interface SettableGaugeMetric {
  set(value: number): void;
}

/** A counter. */
export interface CounterMetric {
  inc(): void;
}

/** A histogram of durations in seconds. */
export interface HistogramMetric {
  observe(seconds: number): void;
}

/**
 * Makes the metrics of one named queue; client-go's `MetricsProvider`.
 * Every method takes the queue's name, the one label of each metric.
 */
export interface MetricsProvider {
  /** Items waiting to be handed out (`workqueue_depth`). */
  newDepthMetric(name: string): GaugeMetric;
  /** Adds counted by the queue, duplicates of a waiting item excluded (`workqueue_adds_total`). */
  newAddsMetric(name: string): CounterMetric;
  /** Seconds from the first add to `get` (`workqueue_queue_duration_seconds`). */
  newLatencyMetric(name: string): HistogramMetric;
  /** Seconds from `get` to `done` (`workqueue_work_duration_seconds`). */
  newWorkDurationMetric(name: string): HistogramMetric;
  /** Sum of the ages of every item being processed (`workqueue_unfinished_work_seconds`). */
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  /** Age of the oldest item being processed (`workqueue_longest_running_processor_seconds`). */
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  /** Calls to `addAfter`, rate-limited adds included (`workqueue_retries_total`). */
  newRetriesMetric(name: string): CounterMetric;
}

/** How often the unfinished-work gauges are refreshed, in milliseconds: 500, as in client-go. */
export const UNFINISHED_WORK_UPDATE_PERIOD_MS = 500;

const noop = (): void => {};
const noopMetric = { inc: noop, dec: noop, set: noop, observe: noop };

/** A provider whose metrics record nothing. */
export const noopMetricsProvider: MetricsProvider = {
  newDepthMetric: () => noopMetric,
  newAddsMetric: () => noopMetric,
  newLatencyMetric: () => noopMetric,
  newWorkDurationMetric: () => noopMetric,
  newUnfinishedWorkSecondsMetric: () => noopMetric,
  newLongestRunningProcessorSecondsMetric: () => noopMetric,
  newRetriesMetric: () => noopMetric,
};

let globalProvider: MetricsProvider | undefined;

/**
 * Sets the provider used by named queues that are given none. As in client-go, the
 * first call wins and later calls are ignored, so set it before making queues.
 */
export function setProvider(provider: MetricsProvider): void {
  globalProvider ??= provider;
}

/** The provider set by {@link setProvider}, or the no-op provider. */
export function globalMetricsProvider(): MetricsProvider {
  return globalProvider ?? noopMetricsProvider;
}
