//! The Plan controller's metrics and the events and metrics of a plan's outcome.

import type { EventRecorderLike } from '@ctrlkit/runtime/events';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Plan } from '../api/plan.js';
import { ConditionType } from '../condition-types.js';
import { True } from '../conditions.js';
import { parseTime } from '../internal/time.js';

/** The Plan controller's metrics. */
export type PlanMetrics = ReturnType<typeof planMetrics>;

/** The controller's metrics on `registry`, reusing those a previous controller registered there. */
export function planMetrics(registry: Registry) {
  const once = <M>(name: string, make: () => M): M =>
    (registry.getSingleMetric(name) as M | undefined) ?? make();
  return {
    migrations: once(
      'ctrlkit_plan_migrations_total',
      () =>
        new Counter({
          name: 'ctrlkit_plan_migrations_total',
          help: 'Plan executions ended, by result (Succeeded, Failed, Canceled).',
          labelNames: ['result'],
          registers: [registry],
        }),
    ),
    duration: once(
      'ctrlkit_plan_migration_duration_seconds',
      () =>
        new Histogram({
          name: 'ctrlkit_plan_migration_duration_seconds',
          help: 'Duration of ended plan executions, from started to completed.',
          labelNames: ['result'],
          buckets: [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 12 * 3600],
          registers: [registry],
        }),
    ),
    vms: once(
      'ctrlkit_plan_vms',
      () =>
        new Gauge({
          name: 'ctrlkit_plan_vms',
          help: 'VMs of each plan by pipeline phase.',
          labelNames: ['plan', 'phase'],
          registers: [registry],
        }),
    ),
    transitions: once(
      'ctrlkit_plan_vm_phase_transitions_total',
      () =>
        new Counter({
          name: 'ctrlkit_plan_vm_phase_transitions_total',
          help: 'VM phase changes, by the phase entered.',
          labelNames: ['phase'],
          registers: [registry],
        }),
    ),
  };
}

/**
 * Records each of Executing, Succeeded, Failed and Canceled that became True between
 * `before` and `after`: an event on the plan, the executions counter and their duration.
 */
export function recordOutcome(
  recorder: EventRecorderLike | undefined,
  metrics: PlanMetrics | undefined,
  before: Plan,
  after: Plan,
): void {
  for (const type of [
    ConditionType.Executing,
    ConditionType.Succeeded,
    ConditionType.Failed,
    ConditionType.Canceled,
  ]) {
    const had = (before.status?.conditions ?? []).some((c) => c.type === type && c.status === True);
    const has = (after.status?.conditions ?? []).some((c) => c.type === type && c.status === True);
    if (!had && has) {
      recorder?.event(
        before,
        type === ConditionType.Failed ? 'Warning' : 'Normal',
        type,
        `Plan ${type}.`,
      );
      if (type !== ConditionType.Executing) metrics?.migrations.inc({ result: type });
      const started = parseTime(after.status?.migration?.started);
      const completed = parseTime(after.status?.migration?.completed);
      if (type !== ConditionType.Executing && !Number.isNaN(started) && !Number.isNaN(completed)) {
        metrics?.duration.observe({ result: type }, (completed - started) / 1000);
      }
    }
  }
}

/** Sets the plan's VMs-by-phase gauge. */
export function observeVMs(metrics: PlanMetrics | undefined, plan: Plan): void {
  if (metrics === undefined) return;
  const counts = new Map<string, number>();
  for (const vm of plan.status?.migration?.vms ?? [])
    counts.set(vm.phase, (counts.get(vm.phase) ?? 0) + 1);
  const labels = { plan: `${plan.metadata.namespace}/${plan.metadata.name}` };
  metrics.vms.remove(labels);
  for (const [phase, n] of counts) metrics.vms.set({ ...labels, phase }, n);
}
