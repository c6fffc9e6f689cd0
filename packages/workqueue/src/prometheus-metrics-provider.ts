//! A metrics provider that exports client-go's workqueue metrics through prom-client.

import { Counter, Gauge, register as globalRegistry, Histogram, type Registry } from 'prom-client';
import type { MetricsProvider } from './metrics.js';

/** Options of {@link PrometheusMetricsProvider}. */
export interface PrometheusMetricsProviderOptions {
  /** Where the metrics are registered. Default: prom-client's global registry. */
  registry?: Registry;
  /** Histogram buckets in seconds. Default: {@link workqueueDurationBuckets}. */
  buckets?: number[];
}

/** client-go's buckets: 1 µs to 1000 s, a factor of ten apart (10 buckets). */
export const workqueueDurationBuckets: readonly number[] = Array.from(
  { length: 10 },
  (_, i) => 1e-6 * 10 ** i,
);

/**
 * Exposes every named queue's metrics as `workqueue_*` with a `name` label, the names
 * client-go registers: depth, adds_total, queue_duration_seconds, work_duration_seconds,
 * unfinished_work_seconds, longest_running_processor_seconds, retries_total.
 */
export class PrometheusMetricsProvider implements MetricsProvider {
  readonly #depth: Gauge<'name'>;
  readonly #adds: Counter<'name'>;
  readonly #latency: Histogram<'name'>;
  readonly #workDuration: Histogram<'name'>;
  readonly #unfinished: Gauge<'name'>;
  readonly #longest: Gauge<'name'>;
  readonly #retries: Counter<'name'>;

  constructor(options: PrometheusMetricsProviderOptions = {}) {
    const registers = [options.registry ?? globalRegistry];
    const buckets = [...(options.buckets ?? workqueueDurationBuckets)];
    const labelNames = ['name'] as const;
    this.#depth = new Gauge({
      name: 'workqueue_depth',
      help: 'Current depth of workqueue',
      labelNames,
      registers,
    });
    this.#adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames,
      registers,
    });
    this.#latency = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames,
      buckets,
      registers,
    });
    this.#workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames,
      buckets,
      registers,
    });
    this.#unfinished = new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      labelNames,
      registers,
    });
    this.#longest = new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running.',
      labelNames,
      registers,
    });
    this.#retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames,
      registers,
    });
  }

  newDepthMetric(name: string) {
    return this.#depth.labels(name);
  }

  newAddsMetric(name: string) {
    return this.#adds.labels(name);
  }

  newLatencyMetric(name: string) {
    return this.#latency.labels(name);
  }

  newWorkDurationMetric(name: string) {
    return this.#workDuration.labels(name);
  }

  newUnfinishedWorkSecondsMetric(name: string) {
    return this.#unfinished.labels(name);
  }

  newLongestRunningProcessorSecondsMetric(name: string) {
    return this.#longest.labels(name);
  }

  newRetriesMetric(name: string) {
    return this.#retries.labels(name);
  }
}
