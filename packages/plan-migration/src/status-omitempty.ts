//! Drops from a Plan status what Go's `omitempty` drops when Forklift writes its status.

import type { Condition } from './api/condition.js';
import type { PlanStatus, Snapshot, Step, VMStatus, Warm } from './api/plan.js';

// The fields tagged `omitempty` in Forklift's types (api/v1beta1/plan.go, plan/{vm,migration,
// timed,snapshot}.go, lib/condition). Go drops such a field when it is the zero value: "",
// false, 0, a nil pointer, or an empty slice or map. Fields without the tag are kept even when
// zero (`progress.completed: 0`, a VM's `phase`, a snapshot ref's `generation`).
const CONDITION = ['reason', 'message', 'suggestion', 'durable', 'items'] as const;
const TASK = [
  'started',
  'completed',
  'description',
  'phase',
  'reason',
  'annotations',
  'error',
] as const;
const VM = [
  'started',
  'completed',
  'id',
  'name',
  'namespace',
  'type',
  'hooks',
  'rootDisk',
  'instanceType',
  'pvcNameTemplate',
  'volumeNameTemplate',
  'networkNameTemplate',
  'targetName',
  'targetPowerState',
  'deleteVmOnFailMigration',
  'error',
  'warm',
  'restorePowerState',
  'newName',
  'conditions',
] as const;
const WARM = ['nextPrecopyAt', 'precopies'] as const;
const PRECOPY = ['start', 'end', 'snapshot'] as const;
const MIGRATION = ['started', 'completed', 'history', 'vms'] as const;
const PLAN = ['conditions', 'observedGeneration'] as const;

/** Go's zero value for `omitempty`: "", false, 0, nil, an empty slice or map. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0)
    return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function omit<T extends object>(holder: T, keys: readonly string[]): void {
  const record = holder as Record<string, unknown>;
  for (const key of keys) if (key in record && isEmpty(record[key])) delete record[key];
}

function omitConditions(conditions: readonly Condition[] | undefined): void {
  for (const c of conditions ?? []) omit(c, CONDITION);
}

function omitStep(step: Step): void {
  // `annotations` is a map: Go drops an empty one too.
  if (step.annotations !== undefined && Object.keys(step.annotations).length === 0)
    delete step.annotations;
  omit(step, TASK);
  for (const task of step.tasks ?? []) omitStep(task);
  omit(step, ['tasks']);
}

function omitWarm(warm: Warm): void {
  for (const p of warm.precopies ?? []) omit(p, PRECOPY);
  omit(warm, WARM);
}

function omitVM(vm: VMStatus): void {
  for (const step of vm.pipeline) omitStep(step);
  if (vm.warm !== undefined) omitWarm(vm.warm);
  omitConditions(vm.conditions);
  omit(vm, VM);
}

/**
 * Removes, in place, every field of `status` that Forklift's Go types tag `omitempty` and that
 * holds Go's zero value ("", false, 0, null, `[]`, or `{}` for a map), so that the status
 * written is the one Forklift writes: e.g. a VM with no conditions yet has no `conditions`
 * key rather than `conditions: []`. Fields without the tag stay, zero or not.
 *
 * Caveats: run it only when no condition staging is under way on `status` (a staged list that
 * is empty would be dropped with its staging state); views over the lists are made afresh on
 * the next reconcile.
 */
export function omitEmptyStatus(status: PlanStatus): void {
  omitConditions(status.conditions);
  const migration = status.migration;
  if (migration !== undefined) {
    for (const snapshot of migration.history ?? []) {
      omitConditions(snapshot.conditions);
      omit<Snapshot>(snapshot, ['conditions']);
    }
    for (const vm of migration.vms ?? []) omitVM(vm);
    omit(migration, MIGRATION);
  }
  omit(status, PLAN);
}
