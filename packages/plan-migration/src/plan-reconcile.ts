//! One reconcile of a Plan, without I/O of its own: skip rules, postpone, staged validation, archive, Ready, execution.

import type { Clock } from '@ctrlkit/core';
import type { Plan } from './api/plan.js';
import { planStatus } from './api/plan.js';
import { ConditionType, Reason } from './condition-types.js';
import { Category, conditionsOf, READY, True } from './conditions.js';
import { executePlan, type PlanExecutionContext } from './plan-execution.js';
import { NO_REQ, SLOW_REQ } from './requeue.js';
import { omitEmptyStatus } from './status-omitempty.js';
import type { ValidationInput } from './validation/validation-input.js';
import { validatePlan } from './validation.js';

/** Objects whose controller has not yet seen their latest generation postpone plans. */
export interface Generational {
  metadata: { generation?: number };
  status?: { observedGeneration?: number };
}

/** Whether an object is not yet reconciled (`status.observedGeneration < metadata.generation`). */
export function notReconciled(obj: Generational): boolean {
  return (obj.status?.observedGeneration ?? 0) < (obj.metadata.generation ?? 0);
}

/** What {@link reconcilePlan} needs. */
export interface PlanReconcileInput
  extends Omit<ValidationInput, 'plan' | 'clock'>,
    Omit<PlanExecutionContext, 'plan' | 'references' | 'clock'> {
  /** The plan, a copy the reconcile edits (its status). */
  plan: Plan;
  clock: Clock;
  /** Providers, maps and hooks; any not reconciled postpones the plan. */
  dependencies: readonly Generational[];
  /** Best-effort cleanup of every VM of an archived plan. */
  archive(): Promise<void>;
}

/** The outcome of a reconcile. */
export interface PlanReconcileResult {
  /** Requeue after this many ms (0: do not). */
  requeueAfterMs: number;
  /** Whether the status was computed and should be written. */
  writeStatus: boolean;
}

/**
 * Reconciles a plan in memory, as upstream's `Reconcile` after the Get:
 * 1. skips a plan archived and already Archived, or Succeeded and not archived;
 * 2. postpones ({@link SLOW_REQ}) while a provider, map or hook is not reconciled;
 * 3. stages conditions: validation, `Archived` (Advisory, UserRequested) after a
 *    best-effort cleanup when `spec.archived`, and `Ready` when nothing blocks;
 * 4. executes, and sets `observedGeneration`;
 * 5. drops the status fields Go's `omitempty` would drop (`omitEmptyStatus`: a VM without
 *    conditions has no `conditions: []`).
 */
export async function reconcilePlan(input: PlanReconcileInput): Promise<PlanReconcileResult> {
  const { plan, clock } = input;
  const status = planStatus(plan);
  const cnd = conditionsOf(status, clock);
  if (plan.spec.archived === true && cnd.hasCondition(ConditionType.Archived)) {
    return { requeueAfterMs: NO_REQ, writeStatus: false };
  }
  if (cnd.hasCondition(ConditionType.Succeeded) && plan.spec.archived !== true) {
    return { requeueAfterMs: NO_REQ, writeStatus: false };
  }
  if (input.dependencies.some(notReconciled))
    return { requeueAfterMs: SLOW_REQ, writeStatus: false };

  cnd.beginStagingConditions();
  await validatePlan({ ...input, plan, clock });
  if (plan.spec.archived === true) {
    await input.archive();
    cnd.setCondition({
      type: ConditionType.Archived,
      status: True,
      category: Category.Advisory,
      reason: Reason.UserRequested,
      message: 'The migration plan has been archived.',
    });
  }
  if (
    !cnd.hasBlockerCondition() &&
    !cnd.hasCondition(ConditionType.Archived) &&
    !cnd.hasCondition(ConditionType.ValidatingVDDK)
  ) {
    cnd.setCondition({
      type: READY,
      status: True,
      category: Category.Required,
      message: 'The migration plan is ready.',
    });
  }
  cnd.endStagingConditions();
  const requeueAfterMs = await executePlan({ ...input, plan, clock });
  status.observedGeneration = plan.metadata.generation ?? 0;
  // The status as Forklift writes it: no empty `omitempty` fields (e.g. `conditions: []`).
  omitEmptyStatus(status);
  return { requeueAfterMs, writeStatus: true };
}
