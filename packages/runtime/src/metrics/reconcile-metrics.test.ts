import { FakeClock } from '@ctrlkit/core/testing';
import { newItemExponentialFailureRateLimiter } from '@ctrlkit/workqueue';
import { PrometheusMetricsProvider } from '@ctrlkit/workqueue/prometheus';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Controller } from '../controller/controller.js';
import type { ReconcileResult } from '../controller/reconciler.js';
import { TerminalError } from '../controller/terminal-error.js';
import { PrometheusReconcileMetrics } from './reconcile-metrics.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function value(registry: Registry, name: string, labels: Record<string, string>) {
  const metric = await registry.getSingleMetric(name)?.get();
  const found = metric?.values.find((v) =>
    Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l),
  );
  return found?.value;
}

describe('PrometheusReconcileMetrics', () => {
  it('counts each outcome under controller-runtime names and times each reconcile', async () => {
    const clock = new FakeClock();
    const registry = new Registry();
    const outcomes: Record<string, () => ReconcileResult | undefined> = {
      ok: () => undefined,
      fail: () => {
        throw new Error('boom');
      },
      terminal: () => {
        throw new TerminalError('bad spec');
      },
      later: () => ({ requeueAfterMs: 60_000 }),
      again: () => ({ requeue: true }),
    };
    let active = -1;
    const controller = new Controller({
      name: 'things',
      maxConcurrentReconciles: 3,
      clock,
      rateLimiter: newItemExponentialFailureRateLimiter<string>(60_000, 60_000),
      reconcileMetrics: new PrometheusReconcileMetrics(registry),
      reconcile: async (key) => {
        active =
          (await value(registry, 'controller_runtime_active_workers', { controller: 'things' })) ??
          -1;
        clock.step(250);
        return outcomes[key]?.();
      },
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    await tick();
    expect(
      await value(registry, 'controller_runtime_max_concurrent_reconciles', {
        controller: 'things',
      }),
    ).toBe(3);
    expect(
      await value(registry, 'controller_runtime_reconcile_total', {
        controller: 'things',
        result: 'success',
      }),
    ).toBe(0);
    for (const key of Object.keys(outcomes)) controller.enqueue(key);
    for (let i = 0; i < 20; i++) await tick();
    stop.abort();
    await running;
    const total = (result: string) =>
      value(registry, 'controller_runtime_reconcile_total', { controller: 'things', result });
    expect(await total('success')).toBe(1);
    expect(await total('error')).toBe(2);
    expect(await total('requeue_after')).toBe(1);
    expect(await total('requeue')).toBe(1);
    expect(
      await value(registry, 'controller_runtime_reconcile_errors_total', { controller: 'things' }),
    ).toBe(2);
    expect(
      await value(registry, 'controller_runtime_terminal_reconcile_errors_total', {
        controller: 'things',
      }),
    ).toBe(1);
    expect(active).toBeGreaterThanOrEqual(1);
    expect(
      await value(registry, 'controller_runtime_active_workers', { controller: 'things' }),
    ).toBe(0);
    const text = await registry.metrics();
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_count{controller="things"} 5',
    );
    // Each reconcile takes at least the 250 ms it steps the clock; none reaches 5 ms less.
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="0.2",controller="things"} 0',
    );
  });

  it('reaches a controller made before the registry through useMetrics, queue metrics included', async () => {
    const registry = new Registry();
    const controller = new Controller({ name: 'late', reconcile: () => {} });
    controller.useMetrics({
      metricsProvider: new PrometheusMetricsProvider({ registry }),
      reconcileMetrics: new PrometheusReconcileMetrics(registry),
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    controller.enqueue('a');
    for (let i = 0; i < 5; i++) await tick();
    stop.abort();
    await running;
    const text = await registry.metrics();
    expect(text).toContain('workqueue_adds_total{name="late"} 1');
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="late",result="success"} 1',
    );
  });

  it('keeps the reconcile metrics named in the options over those of useMetrics', async () => {
    const own = new Registry();
    const other = new Registry();
    const controller = new Controller({
      name: 'own',
      reconcile: () => {},
      reconcileMetrics: new PrometheusReconcileMetrics(own),
    });
    controller.useMetrics({ reconcileMetrics: new PrometheusReconcileMetrics(other) });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    controller.enqueue('a');
    for (let i = 0; i < 5; i++) await tick();
    stop.abort();
    await running;
    expect(await own.metrics()).toContain(
      'controller_runtime_reconcile_total{controller="own",result="success"} 1',
    );
    expect(await other.metrics()).not.toContain('controller="own"');
  });
});
