//! Drops from a Plan status what Go's `omitempty` drops when Forklift writes its status.

import type { Condition } from './api/condition.js';
import type { PlanStatus, Step, Task, VMStatus, Warm } from './api/plan.js';

// The fields tagged `omitempty` in Forklift's types (api/v1beta1/plan.go, plan/{vm,migration,
// timed,snapshot}.go, lib/condition). Go drops such a field when it is the zero value: "",
// false, 0, a nil pointer, or an empty slice or map. Fields without the tag are kept even when
// zero (`progress.completed: 0`, a VM's `phase`, a snapshot ref's `generation`). Timestamps,
// `error` and `warm` are pointers in Go: absent here when nil. Each field is checked by name,
// not by a list of keys: named property reads stay fast where keyed ones over many object
// shapes do not (a keyed walk after every pass doubled the CPU of a 1,000-VM plan).

/** No own key (without the array `Object.keys` would allocate on every call). */
function emptyMap(map: Record<string, string>): boolean {
  for (const key in map) if (Object.hasOwn(map, key)) return false;
  return true;
}

const emptyList = (x: readonly unknown[] | undefined): boolean => x !== undefined && x.length === 0;

function omitConditions(conditions: Condition[] | undefined): void {
  for (const c of conditions ?? []) {
    if (c.reason === '') delete c.reason;
    if (c.message === '') delete c.message;
    if (c.suggestion === '') delete c.suggestion;
    if (c.durable === false) delete c.durable;
    if (emptyList(c.items)) delete c.items;
  }
}

function omitTask(task: Task): void {
  if (task.description === '') delete task.description;
  if (task.phase === '') delete task.phase;
  if (task.reason === '') delete task.reason;
  // `annotations` is a map: Go drops an empty one too.
  if (task.annotations !== undefined && emptyMap(task.annotations)) delete task.annotations;
}

function omitStep(step: Step): void {
  omitTask(step);
  if (step.tasks === undefined) return;
  if (step.tasks.length === 0) delete step.tasks;
  else for (const task of step.tasks) omitTask(task);
}

function omitWarm(warm: Warm): void {
  if (emptyList(warm.precopies)) delete warm.precopies;
  for (const p of warm.precopies ?? []) if (p.snapshot === '') delete p.snapshot;
}

/**
 * Removes, in place, every field of a VM's status (its plan VM fields, pipeline steps and tasks,
 * warm state and conditions) that Forklift's Go types tag `omitempty` and that holds Go's zero
 * value. `MigrationRunner.begin` runs it on each VM status it builds or keeps; later
 * passes set no empty value but an emptied condition list (see {@link omitEmptyStatus}).
 */
export function omitEmptyVM(vm: VMStatus): void {
  if (vm.id === '') delete vm.id;
  if (vm.name === '') delete vm.name;
  if (vm.namespace === '') delete vm.namespace;
  if (vm.type === '') delete vm.type;
  if (emptyList(vm.hooks)) delete vm.hooks;
  if (vm.targetName === '') delete vm.targetName;
  if (vm.pvcNameTemplate === '') delete vm.pvcNameTemplate;
  if (vm.volumeNameTemplate === '') delete vm.volumeNameTemplate;
  if (vm.networkNameTemplate === '') delete vm.networkNameTemplate;
  if (vm.deleteVmOnFailMigration === false) delete vm.deleteVmOnFailMigration;
  if (vm.newName === '') delete vm.newName;
  for (const step of vm.pipeline) omitStep(step);
  if (vm.warm !== undefined) omitWarm(vm.warm);
  omitConditionList(vm);
}

/** Drops `holder.conditions` when empty, else the empty fields of each condition. */
function omitConditionList(holder: { conditions?: Condition[] }): void {
  // Unset rather than deleted: a delete turns a VM status into a slow dictionary object.
  if (emptyList(holder.conditions)) holder.conditions = undefined;
  else omitConditions(holder.conditions);
}

/**
 * Removes, in place, what Go's `omitempty` drops from a Plan status after a reconcile: empty
 * condition lists (of the plan, its snapshots and its VMs: a VM with no conditions has no
 * `conditions` key rather than `conditions: []`) and the conditions' empty fields, a zero
 * `observedGeneration`, empty `history` and `vms`. The rest of each VM's status is cleaned
 * once, when `MigrationRunner.begin` builds it ({@link omitEmptyVM}): walking every
 * step and task of every VM after every pass costs a large plan a fifth of its CPU.
 *
 * Caveats: run it only when no condition staging is under way on `status` (a staged list that
 * is empty would be dropped with its staging state); views over the lists are made afresh on
 * the next reconcile.
 */
export function omitEmptyStatus(status: PlanStatus): void {
  omitConditionList(status);
  if (status.observedGeneration === 0) delete status.observedGeneration;
  const migration = status.migration;
  if (migration === undefined) return;
  for (const snapshot of migration.history ?? []) omitConditionList(snapshot);
  if (emptyList(migration.history)) delete migration.history;
  if (emptyList(migration.vms)) delete migration.vms;
  for (const vm of migration.vms ?? []) omitConditionList(vm);
}
