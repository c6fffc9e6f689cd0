// The first programs of the @packageDocumentation tours, through the entry points.

import { FakeClock } from '@ctrlkit/core/testing';
import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import {
  defaultControllerRateLimiter,
  newTypedDelayingQueue,
  newTypedRateLimitingQueue,
} from './index.js';
import { PrometheusMetricsProvider } from './prometheus.js';
import { RecordingMetricsProvider } from './testing.js';

it('./testing: a recording provider sees a delayed add', () => {
  const metrics = new RecordingMetricsProvider();
  const clock = new FakeClock();
  const queue = newTypedDelayingQueue<string>({ name: 'q', metricsProvider: metrics, clock });
  queue.addAfter('a', 1_000);
  clock.step(1_000);
  expect(metrics.get('q').adds).toBe(1);
  queue.shutDown();
});

it('./prometheus: a named queue shows as workqueue_depth{name}', async () => {
  const registry = new Registry();
  const queue = newTypedRateLimitingQueue(defaultControllerRateLimiter<string>(), {
    name: 'pods',
    metricsProvider: new PrometheusMetricsProvider({ registry }),
  });
  queue.add('default/nginx');
  expect(await registry.metrics()).toContain('workqueue_depth{name="pods"} 1');
  queue.shutDown();
});
