//! The generic VM scheduler: at most `maxInFlight` VMs migrate at once per source provider (Forklift's plan/scheduler).

import type { Clock } from '@ctrlkit/core';
import type { Condition } from './api/condition.js';
import { type Plan, planStatus, type VMStatus } from './api/plan.js';
import { ConditionType } from './condition-types.js';
import { Category, conditionsOf, READY, True } from './conditions.js';
import { markedCompleted, markedStarted, running } from './vm-status.js';

/** The message of a queued VM's `Pending` condition. */
export function schedulerQueuedMessage(limit: number): string {
  return `Waiting to start migration: in-flight limit reached (max ${limit}).`;
}

/** Whether the plan's active snapshot has `Executing`. */
export function isExecuting(plan: Plan): boolean {
  const history = plan.status?.migration?.history ?? [];
  const active = history[history.length - 1];
  return (active?.conditions ?? []).some(
    (c) => c.type === ConditionType.Executing && c.status === True,
  );
}

/** Same source provider: namespace (defaulting to the plan's) and name. */
function sameSource(a: Plan, b: Plan): boolean {
  const ns = (p: Plan) => p.spec.provider.source.namespace || p.metadata.namespace;
  return ns(a) === ns(b) && a.spec.provider.source.name === b.spec.provider.source.name;
}

/**
 * Picks the next VM of `plan` to start: counts the running VMs of every Executing plan of
 * the same source provider (`plans` should include `plan`, whose in-memory status wins),
 * and below `maxInFlight` returns the first VM that is neither started, completed nor
 * Canceled.
 */
export function nextVM(
  plan: Plan,
  plans: readonly Plan[],
  maxInFlight: number,
): VMStatus | undefined {
  let inFlight = 0;
  const others = plans.filter((p) => p.metadata.uid !== plan.metadata.uid);
  for (const p of [plan, ...others]) {
    if (!sameSource(p, plan) || !isExecuting(p)) continue;
    for (const vm of p.status?.migration?.vms ?? []) if (running(vm)) inFlight++;
  }
  if (inFlight >= maxInFlight) return undefined;
  return (plan.status?.migration?.vms ?? []).find(
    (vm) =>
      !(vm.conditions ?? []).some((c) => c.type === ConditionType.Canceled && c.status === True) &&
      !markedStarted(vm) &&
      !markedCompleted(vm),
  );
}

/** Whether `conditions` hold the scheduler's durable `Pending` with `message`, as set below. */
function queuedWith(conditions: readonly Condition[] | undefined, message: string): boolean {
  return (conditions ?? []).some(
    (c) =>
      c.type === ConditionType.Pending &&
      c.status === True &&
      c.category === Category.Advisory &&
      c.message === message &&
      c.durable === true &&
      c.reason === undefined &&
      c.suggestion === undefined &&
      c.items === undefined,
  );
}

/**
 * Gives every VM still waiting a durable `Pending` condition, and the plan a `Ready`
 * message counting them. Returns how many wait.
 */
export function markSchedulerQueuedVMs(plan: Plan, limit: number, clock: Clock): number {
  let queued = 0;
  const message = schedulerQueuedMessage(limit);
  for (const vm of plan.status?.migration?.vms ?? []) {
    const cnd = conditionsOf(vm, clock);
    if (markedStarted(vm) || markedCompleted(vm) || cnd.hasCondition(ConditionType.Canceled))
      continue;
    queued++;
    // Already queued (durable, so kept by staging): every pass walks every waiting VM.
    if (queuedWith(vm.conditions, message)) continue;
    cnd.setCondition({
      type: ConditionType.Pending,
      status: True,
      category: Category.Advisory,
      message,
      durable: true,
    });
  }
  if (queued > 0) {
    conditionsOf(planStatus(plan), clock).setCondition({
      type: READY,
      status: True,
      category: Category.Required,
      message: `${queued} VM(s) waiting to start migration (in-flight limit: ${limit}).`,
    });
  }
  return queued;
}
