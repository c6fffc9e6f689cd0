//! The plan-level execution: the active snapshot, pending Migrations, cancellation and blockers (Forklift's plan controller execute()).

import type { Clock, Logger } from '@ctrlkit/core';
import { noopLogger } from '@ctrlkit/core';
import type { Migration } from './api/migration.js';
import {
  migrationStatus,
  type Plan,
  planStatus,
  type Snapshot,
  type SnapshotRef,
} from './api/plan.js';
import { ConditionType, Reason } from './condition-types.js';
import { Category, conditionsOf, type NewCondition, True } from './conditions.js';
import { parseTime } from './internal/time.js';
import { activeSnapshot } from './migration-runner.js';
import { FAST_REQ, NO_REQ, SLOW_REQ } from './requeue.js';
import type { PlanReferences } from './validation/validation-input.js';
import { addError, markCompleted, markStartedStepsCompleted } from './vm-status.js';

/** What {@link executePlan} needs. */
export interface PlanExecutionContext {
  plan: Plan;
  references: PlanReferences;
  clock: Clock;
  logger?: Logger;
  /** Grace period of a blocker while executing, ms. */
  blockerGracePeriodMs: number;
  /** The Migration `namespace/name`, or undefined. */
  getMigration(namespace: string, name: string): Migration | undefined;
  /** Every Migration in the plan's namespace (or everywhere). */
  listMigrations(): readonly Migration[];
  /** Runs one pass of `migration` on the plan; returns the requeue delay (ms). */
  run(migration: Migration): Promise<number>;
  /** Cleans up VMs canceled by the snapshot (Cancel()); runs whether or not a migration is active. */
  cancel(migration: Migration | undefined): Promise<void>;
}

/** A snapshot reference of an object. */
export function snapshotRef(
  obj:
    | { metadata: { namespace?: string; name?: string; uid?: string; generation?: number } }
    | undefined,
): SnapshotRef {
  return {
    namespace: obj?.metadata.namespace ?? '',
    name: obj?.metadata.name ?? '',
    uid: obj?.metadata.uid ?? '',
    generation: obj?.metadata.generation ?? 0,
  };
}

const canceled = (reason: string, message: string): NewCondition => ({
  type: ConditionType.Canceled,
  status: True,
  category: Category.Advisory,
  reason,
  message,
  durable: true,
});

/**
 * Executes the plan, after validation and `Ready` (the plan's conditions already staged):
 * 1. with a blocker, Archived or a requeue condition, does nothing else but (blockers)
 *    fail an executing migration whose blocker outlived the grace period, and requeue slowly;
 * 2. finds the active migration (Canceled/Deleted when gone or replaced) and matches the
 *    snapshot by UID against the plan, providers and maps (Canceled/Modified otherwise);
 * 3. copies a Canceled snapshot to every VM not Succeeded/Failed, then cancels them;
 * 4. with no active migration takes the first pending one (by creation, then ns/name) and
 *    appends a snapshot; with none pending clears `Executing` and stops;
 * 5. runs a pass under snapshot staging and copies `Executing`, `Succeeded`, `Failed` and
 *    `Canceled` from the snapshot to the plan.
 * Returns the requeue delay in ms.
 */
export async function executePlan(ctx: PlanExecutionContext): Promise<number> {
  const { plan, clock } = ctx;
  const log = ctx.logger ?? noopLogger;
  plan.status ??= {};
  const planCnd = conditionsOf(plan.status, clock);
  const requeueCondition = planCnd.hasReQCondition();
  if (
    planCnd.hasBlockerCondition() ||
    planCnd.hasCondition(ConditionType.Archived) ||
    requeueCondition
  ) {
    if (planCnd.hasBlockerCondition())
      failExecutingMigrationOnBlocker(plan, clock, ctx.blockerGracePeriodMs);
    return requeueCondition || planCnd.hasBlockerCondition() ? SLOW_REQ : NO_REQ;
  }

  let migration = activeMigration(ctx);
  if (migration !== undefined && !matchSnapshot(ctx))
    log.info({ plan: plan.metadata.name }, 'snapshot not matched');
  let snapshot = activeSnapshot(plan);
  if (
    snapshot !== undefined &&
    conditionsOf(snapshot, clock).hasCondition(ConditionType.Canceled)
  ) {
    for (const vm of plan.status.migration?.vms ?? []) {
      const cnd = conditionsOf(vm, clock);
      if (!cnd.hasAnyCondition(ConditionType.Succeeded, ConditionType.Failed)) {
        cnd.setCondition(canceled(Reason.Modified, 'The migration has been canceled.'));
      }
    }
  }
  await ctx.cancel(migration);

  const pending = pendingMigrations(plan, ctx.listMigrations());
  if (migration === undefined && pending.length > 0) {
    migration = pending[0] as Migration;
    snapshot = newSnapshot(plan, migration, ctx.references);
    planCnd.deleteCondition(ConditionType.Failed, ConditionType.Canceled);
    log.info({ migration: migration.metadata.name }, 'found (new) migration');
  }
  if (migration === undefined || snapshot === undefined) {
    planCnd.deleteCondition(ConditionType.Executing);

    return NO_REQ;
  }

  const snap = conditionsOf(snapshot, clock);
  snap.beginStagingConditions();
  let reQ = await ctx.run(migration);
  snap.endStagingConditions();
  copySnapshotConditions(plan, snapshot, clock);
  if (pending.length > 1 && reQ === 0) reQ = FAST_REQ;
  return reQ;
}

function copySnapshotConditions(plan: Plan, snapshot: Snapshot, clock: Clock): void {
  const planCnd = conditionsOf(planStatus(plan), clock);
  const snap = conditionsOf(snapshot, clock);
  for (const type of [
    ConditionType.Executing,
    ConditionType.Succeeded,
    ConditionType.Failed,
    ConditionType.Canceled,
  ]) {
    const c = snap.findCondition(type);
    if (c !== undefined) planCnd.setCondition(c);
    else planCnd.deleteCondition(type);
  }
}

/**
 * The migration of the active snapshot if it is not terminal; sets the snapshot Canceled
 * (Deleted) when the Migration is gone or was replaced (another UID). Clears the
 * snapshot's `Executing` when there is none.
 */
export function activeMigration(
  ctx: Pick<PlanExecutionContext, 'plan' | 'clock' | 'getMigration'>,
): Migration | undefined {
  const snapshot = activeSnapshot(ctx.plan);
  if (snapshot === undefined) return undefined;
  const snap = conditionsOf(snapshot, ctx.clock);
  let found: Migration | undefined;
  if (
    !snap.hasAnyCondition(ConditionType.Canceled, ConditionType.Failed, ConditionType.Succeeded)
  ) {
    const m = ctx.getMigration(snapshot.migration.namespace, snapshot.migration.name);
    if (
      m === undefined ||
      m.metadata.uid !== snapshot.migration.uid ||
      m.metadata.deletionTimestamp !== undefined
    ) {
      snap.setCondition(canceled(Reason.Deleted, 'The migration has been deleted.'));
    } else {
      found = m;
    }
  }
  if (found === undefined) snap.deleteCondition(ConditionType.Executing);
  return found;
}

/**
 * Whether the active snapshot still matches the plan, its providers and maps by UID;
 * when not, the snapshot and plan lose `Executing` and the snapshot becomes Canceled (Modified).
 */
export function matchSnapshot(
  ctx: Pick<PlanExecutionContext, 'plan' | 'clock' | 'references'>,
): boolean {
  const { plan, clock, references: refs } = ctx;
  const snapshot = activeSnapshot(plan);
  if (snapshot === undefined) return true;
  const matched =
    snapshot.plan.uid === plan.metadata.uid &&
    snapshot.provider.source.uid === refs.source?.metadata.uid &&
    snapshot.provider.destination.uid === refs.destination?.metadata.uid &&
    snapshot.map.network.uid === refs.networkMap?.metadata.uid &&
    (plan.spec.type === 'conversion' || snapshot.map.storage.uid === refs.storageMap?.metadata.uid);
  if (!matched) {
    conditionsOf(planStatus(plan), clock).deleteCondition(ConditionType.Executing);
    markCompleted(migrationStatus(plan), clock);
    const snap = conditionsOf(snapshot, clock);
    snap.deleteCondition(ConditionType.Executing);
    snap.setCondition(canceled(Reason.Modified, 'The migration has been canceled.'));
  }
  return matched;
}

/**
 * Migrations whose `spec.plan` names this plan and that are not Succeeded, Failed or
 * Canceled (in their own status, or in the plan's history), by creation time then ns/name.
 */
export function pendingMigrations(plan: Plan, migrations: readonly Migration[]): Migration[] {
  const done = new Set<string>();
  for (const s of plan.status?.migration?.history ?? []) {
    if (
      (s.conditions ?? []).some(
        (c) => c.status === True && ['Succeeded', 'Failed', 'Canceled'].includes(c.type),
      )
    ) {
      done.add(s.migration.uid);
    }
  }
  const planNs = plan.metadata.namespace ?? '';
  return migrations
    .filter((m) => {
      const ns = m.spec.plan.namespace || m.metadata.namespace;
      if (ns !== planNs || m.spec.plan.name !== plan.metadata.name) return false;
      if (m.metadata.deletionTimestamp !== undefined) return false;
      if (done.has(m.metadata.uid ?? '')) return false;
      return !(m.status?.conditions ?? []).some(
        (c) => c.status === True && ['Succeeded', 'Failed', 'Canceled'].includes(c.type),
      );
    })
    .sort((a, b) => {
      const ta = parseTime(a.metadata.creationTimestamp);
      const tb = parseTime(b.metadata.creationTimestamp);
      if (ta !== tb && !Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
      const ka = `${a.metadata.namespace}/${a.metadata.name}`;
      const kb = `${b.metadata.namespace}/${b.metadata.name}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

/** Appends a snapshot of the plan, migration, providers and maps and returns it. */
export function newSnapshot(plan: Plan, migration: Migration, refs: PlanReferences): Snapshot {
  const snapshot: Snapshot = {
    plan: snapshotRef(plan),
    migration: snapshotRef(migration),
    provider: { source: snapshotRef(refs.source), destination: snapshotRef(refs.destination) },
    map: {
      network: snapshotRef(refs.networkMap),
      storage:
        plan.spec.type === 'conversion' ? snapshotRef(undefined) : snapshotRef(refs.storageMap),
    },
  };
  const status = migrationStatus(plan);
  status.history ??= [];
  status.history.push(snapshot);
  return snapshot;
}

/**
 * Fails the executing migration when a Critical or Error condition has stood longer than
 * `gracePeriodMs`: the snapshot and plan get a durable `Failed`, and every VM not yet
 * Succeeded, Failed or Canceled gets it too, with the error, phase Completed. No-op without
 * an executing, non-terminal snapshot or within the grace period. Returns whether it failed.
 */
export function failExecutingMigrationOnBlocker(
  plan: Plan,
  clock: Clock,
  gracePeriodMs: number,
): boolean {
  const snapshot = activeSnapshot(plan);
  if (snapshot === undefined) return false;
  const snap = conditionsOf(snapshot, clock);
  if (!snap.hasCondition(ConditionType.Executing)) return false;
  if (snap.hasAnyCondition(ConditionType.Failed, ConditionType.Canceled, ConditionType.Succeeded))
    return false;
  const now = clock.now();
  const messages: string[] = [];
  for (const c of plan.status?.conditions ?? []) {
    if (c.status !== True || (c.category !== Category.Critical && c.category !== Category.Error))
      continue;
    if (now - parseTime(c.lastTransitionTime) < gracePeriodMs) continue;
    messages.push(c.message || `${c.type} (category=${c.category}, reason=${c.reason ?? ''})`);
  }
  if (messages.length === 0) return false;
  const failed: NewCondition = {
    type: ConditionType.Failed,
    status: True,
    category: Category.Advisory,
    message: `The migration has FAILED due to a validation blocker: ${messages.join('; ')}`,
    durable: true,
  };
  plan.status ??= {};
  markCompleted(migrationStatus(plan), clock);
  snap.deleteCondition(ConditionType.Executing);
  snap.setCondition(failed);
  const planCnd = conditionsOf(plan.status, clock);
  planCnd.deleteCondition(ConditionType.Executing);
  planCnd.setCondition(failed);
  for (const vm of plan.status.migration?.vms ?? []) {
    const cnd = conditionsOf(vm, clock);
    if (cnd.hasAnyCondition(ConditionType.Succeeded, ConditionType.Failed, ConditionType.Canceled))
      continue;
    cnd.setCondition(failed);
    addError(vm, failed.message ?? '');
    vm.phase = 'Completed';
    markCompleted(vm, clock);
    markStartedStepsCompleted(vm, clock);
  }
  return true;
}
