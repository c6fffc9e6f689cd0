import { FakeClock } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { newTypedDelayingQueue } from './delaying-queue.js';
import { UNFINISHED_WORK_UPDATE_PERIOD_MS } from './metrics.js';
import { newTyped } from './queue.js';
import { RecordingMetricsProvider } from './testing/recording-metrics-provider.js';

describe('metrics', () => {
  let clock: FakeClock;
  afterEach(() => {
    clock = new FakeClock();
  });

  it('MetricShutdown: unfinished work is refreshed with the clock, and not after shutDown', async () => {
    clock = new FakeClock();
    const provider = new RecordingMetricsProvider();
    const q = newTyped<string>({ name: 'test', metricsProvider: provider, clock });
    q.add('foo');
    await q.get();
    clock.step(UNFINISHED_WORK_UPDATE_PERIOD_MS);
    expect(provider.get('test').unfinishedWorkSeconds).toBeCloseTo(0.5, 9);
    clock.step(UNFINISHED_WORK_UPDATE_PERIOD_MS);
    expect(provider.get('test').unfinishedWorkSeconds).toBeCloseTo(1, 9);
    q.shutDown();
    expect(clock.pendingTimers).toBe(0);
    clock.step(10 * UNFINISHED_WORK_UPDATE_PERIOD_MS);
    expect(provider.get('test').unfinishedWorkSeconds).toBeCloseTo(1, 9);
  });

  it('Metrics: depth, adds, latency, work duration, unfinished and longest running', async () => {
    clock = new FakeClock();
    const provider = new RecordingMetricsProvider();
    const q = newTyped<string>({ name: 'test', metricsProvider: provider, clock });
    const m = provider.get('test');

    q.add('foo');
    expect(m.adds).toBe(1);
    expect(m.depth).toBe(1);

    // Epoch milliseconds resolve about 0.25 µs, hence 6 digits of seconds below.
    clock.step(0.05);
    const first = await q.get();
    expect(first.item).toBe('foo');
    expect(m.depth).toBe(0);
    expect(m.latencySeconds).toHaveLength(1);
    expect(m.latencySeconds[0]).toBeCloseTo(5e-5, 6);

    for (let i = 0; i < 5; i++) q.add('foo');
    expect(m.adds).toBe(2);
    expect(m.depth).toBe(1);

    clock.step(0.025);
    q.done('foo');
    expect(m.workDurationSeconds).toHaveLength(1);
    expect(m.workDurationSeconds[0]).toBeCloseTo(2.5e-5, 6);
    expect(m.depth).toBe(1);

    await q.get();
    expect(m.depth).toBe(0);
    expect(m.latencySeconds).toHaveLength(2);
    expect(m.latencySeconds[1]).toBeCloseTo(2.5e-5, 6);

    // The gauges refresh on the 500 ms ticker: the first tick after the get.
    clock.step(UNFINISHED_WORK_UPDATE_PERIOD_MS - 0.075);
    const age = (UNFINISHED_WORK_UPDATE_PERIOD_MS - 0.075) / 1000;
    expect(m.unfinishedWorkSeconds).toBeCloseTo(age, 6);
    expect(m.longestRunningProcessorSeconds).toBeCloseTo(age, 6);

    q.done('foo');
    expect(m.workDurationSeconds).toHaveLength(2);
    expect(m.workDurationSeconds[1]).toBeCloseTo(age, 6);
    q.shutDown();
  });

  it('records nothing for a queue without a name', async () => {
    clock = new FakeClock();
    const q = newTypedDelayingQueue<string>({ clock });
    q.addAfter('x', 10);
    expect(clock.pendingTimers).toBe(1);
    q.shutDown();
    expect(clock.pendingTimers).toBe(0);
  });
});
