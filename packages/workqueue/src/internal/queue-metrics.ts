//! Records one queue's metrics: the times each item was added and handed out.

import type { Clock, Timer } from '@ctrlkit/core';
import {
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  type MetricsProvider,
  type SettableGaugeMetric,
  UNFINISHED_WORK_UPDATE_PERIOD_MS,
} from '../metrics.js';

/** The metrics of one named queue, keyed by item key. */
export class QueueMetrics<K> {
  readonly #clock: Clock;
  readonly #depth: GaugeMetric;
  readonly #adds: CounterMetric;
  readonly #latency: HistogramMetric;
  readonly #workDuration: HistogramMetric;
  readonly #unfinishedWork: SettableGaugeMetric;
  readonly #longestRunning: SettableGaugeMetric;
  readonly #addTimes = new Map<K, number>();
  readonly #processingStartTimes = new Map<K, number>();
  readonly #ticker: Timer;

  constructor(name: string, provider: MetricsProvider, clock: Clock) {
    this.#clock = clock;
    this.#depth = provider.newDepthMetric(name);
    this.#adds = provider.newAddsMetric(name);
    this.#latency = provider.newLatencyMetric(name);
    this.#workDuration = provider.newWorkDurationMetric(name);
    this.#unfinishedWork = provider.newUnfinishedWorkSecondsMetric(name);
    this.#longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
    this.#ticker = clock.setTicker(
      () => this.updateUnfinishedWork(),
      UNFINISHED_WORK_UPDATE_PERIOD_MS,
    );
  }

  add(key: K): void {
    this.#adds.inc();
    this.#depth.inc();
    if (!this.#addTimes.has(key)) this.#addTimes.set(key, this.#clock.now());
  }

  get(key: K): void {
    const now = this.#clock.now();
    this.#depth.dec();
    this.#processingStartTimes.set(key, now);
    const addedAt = this.#addTimes.get(key);
    if (addedAt !== undefined) {
      this.#latency.observe((now - addedAt) / 1000);
      this.#addTimes.delete(key);
    }
  }

  done(key: K): void {
    const startedAt = this.#processingStartTimes.get(key);
    if (startedAt !== undefined) {
      this.#workDuration.observe((this.#clock.now() - startedAt) / 1000);
      this.#processingStartTimes.delete(key);
    }
  }

  updateUnfinishedWork(): void {
    const now = this.#clock.now();
    let total = 0;
    let oldest = 0;
    for (const startedAt of this.#processingStartTimes.values()) {
      const age = now - startedAt;
      total += age;
      if (age > oldest) oldest = age;
    }
    this.#unfinishedWork.set(total / 1000);
    this.#longestRunning.set(oldest / 1000);
  }

  stop(): void {
    this.#ticker.cancel();
  }
}
