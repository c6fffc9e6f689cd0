import { FakeClock } from '@ctrlkit/core/testing';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { newItemExponentialFailureRateLimiter } from './default-rate-limiters.js';
import {
  PrometheusMetricsProvider,
  workqueueDurationBuckets,
} from './prometheus-metrics-provider.js';
import { newTypedRateLimitingQueue } from './rate-limiting-queue.js';

describe('PrometheusMetricsProvider', () => {
  it('exports client-go metric names with the queue name as label', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 10), {
      name: 'pods',
      metricsProvider: new PrometheusMetricsProvider({ registry }),
      clock,
    });
    q.add('a');
    q.addRateLimited('b');
    const got = await q.get();
    clock.step(2);
    q.done(got.item!);
    clock.step(500);
    const text = await registry.metrics();
    expect(text).toContain('workqueue_adds_total{name="pods"} 2');
    expect(text).toContain('workqueue_depth{name="pods"} 1');
    expect(text).toContain('workqueue_retries_total{name="pods"} 1');
    expect(text).toContain('workqueue_work_duration_seconds_count{name="pods"} 1');
    expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="0.000001",name="pods"} 1');
    expect(text).toMatch(/workqueue_unfinished_work_seconds\{name="pods"\}/);
    expect(text).toMatch(/workqueue_longest_running_processor_seconds\{name="pods"\}/);
    q.shutDown();
  });

  it('uses buckets from 1 µs to 1000 s', () => {
    expect(workqueueDurationBuckets).toHaveLength(10);
    expect(workqueueDurationBuckets[0]).toBeCloseTo(1e-6, 15);
    expect(workqueueDurationBuckets[9]).toBeCloseTo(1e3, 6);
  });
});
