//! A metrics provider that keeps each queue's values in memory, for tests.

import type { MetricsProvider } from '../metrics.js';

/** The values one named queue's metrics hold. */
export interface RecordedQueueMetrics {
  depth: number;
  adds: number;
  /** Each observed time in the queue (`workqueue_queue_duration_seconds`), in seconds. */
  latencySeconds: number[];
  /** Each observed processing time (`workqueue_work_duration_seconds`), in seconds. */
  workDurationSeconds: number[];
  unfinishedWorkSeconds: number;
  longestRunningProcessorSeconds: number;
  retries: number;
}

/** A {@link MetricsProvider} whose metrics can be read back by queue name. */
export class RecordingMetricsProvider implements MetricsProvider {
  readonly #queues = new Map<string, RecordedQueueMetrics>();

  /** The metrics recorded for queue `name` (all zero if it has none). */
  get(name: string): RecordedQueueMetrics {
    let recorded = this.#queues.get(name);
    if (recorded === undefined) {
      recorded = {
        depth: 0,
        adds: 0,
        latencySeconds: [],
        workDurationSeconds: [],
        unfinishedWorkSeconds: 0,
        longestRunningProcessorSeconds: 0,
        retries: 0,
      };
      this.#queues.set(name, recorded);
    }
    return recorded;
  }

  newDepthMetric(name: string) {
    const m = this.get(name);
    return { inc: () => void m.depth++, dec: () => void m.depth-- };
  }

  newAddsMetric(name: string) {
    const m = this.get(name);
    return { inc: () => void m.adds++ };
  }

  newLatencyMetric(name: string) {
    const m = this.get(name);
    return { observe: (seconds: number) => void m.latencySeconds.push(seconds) };
  }

  newWorkDurationMetric(name: string) {
    const m = this.get(name);
    return { observe: (seconds: number) => void m.workDurationSeconds.push(seconds) };
  }

  newUnfinishedWorkSecondsMetric(name: string) {
    const m = this.get(name);
    return {
      set: (value: number) => {
        m.unfinishedWorkSeconds = value;
      },
    };
  }

  newLongestRunningProcessorSecondsMetric(name: string) {
    const m = this.get(name);
    return {
      set: (value: number) => {
        m.longestRunningProcessorSeconds = value;
      },
    };
  }

  newRetriesMetric(name: string) {
    const m = this.get(name);
    return { inc: () => void m.retries++ };
  }
}
