//! The warm migration phases: precopy rounds of snapshots and checkpoints until the cutover.

import { cutoverFor } from '../api/migration.js';
import type { Step, VMStatus } from '../api/plan.js';
import { formatTime, parseTime, timestamp } from '../internal/time.js';
import { Phase, StepName } from '../phases.js';
import { addError, findStep, markCompleted, markReset, markStarted } from '../vm-status.js';
import type { MigrationRunnerContext } from './context.js';
import { next, runningStep } from './phase-steps.js';

/** CopyingPaused: waits for the next precopy round, or leaves for the cutover once it is due. */
export function copyingPaused(c: MigrationRunnerContext, vm: VMStatus): void {
  const { clock } = c;
  const cutover = c.migration && cutoverFor(c.migration, vm.id);
  if (cutover !== undefined && cutover <= clock.now()) {
    vm.phase = Phase.StorePowerState;
    const step = findStep(vm, StepName.DiskTransfer);
    if (step) {
      markCompleted(step, clock);
      step.phase = 'Completed';
    }
    return;
  }
  const at = parseTime(vm.warm?.nextPrecopyAt);
  if (Number.isNaN(at) || at <= clock.now()) next(c, vm);
}

/** CreateInitialSnapshot, CreateSnapshot, CreateFinalSnapshot: a snapshot starts a precopy. */
export async function createSnapshot(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const { clock } = c;
  const snapshot = await c.client.createSnapshot(vm);
  vm.warm ??= { successes: 0, failures: 0, consecutiveFailures: 0 };
  vm.warm.precopies ??= [];
  vm.warm.precopies.push({ start: timestamp(clock), snapshot });
  if (vm.phase === Phase.CreateInitialSnapshot) {
    runningStep(c, vm);
    markStarted(vm, clock);
  }
  next(c, vm);
}

/** WaitForInitialSnapshot, WaitForSnapshot, WaitForFinalSnapshot: the last precopy's snapshot is ready. */
export async function waitForSnapshot(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const last = vm.warm?.precopies?.at(-1);
  if (last?.snapshot === undefined) {
    addError(vm, 'No snapshot to wait for.');
    return;
  }
  if (await c.client.checkSnapshotReady(vm, last.snapshot)) next(c, vm);
}

/** RemovePreviousSnapshot, RemovePenultimateSnapshot, RemoveFinalSnapshot. */
export async function removeSnapshot(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const precopies = vm.warm?.precopies ?? [];
  const target = vm.phase === Phase.RemoveFinalSnapshot ? precopies.at(-1) : precopies.at(-2);
  if (target?.snapshot) await c.client.removeSnapshot(vm, target.snapshot);
  next(c, vm);
}

/** AddCheckpoint starts the round's transfer and copies again; AddFinalCheckpoint moves on. */
export async function addCheckpoint(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const round = Math.max(0, (vm.warm?.precopies?.length ?? 1) - 1);
  await c.client.startTransfer(vm, round);
  if (vm.phase === Phase.AddCheckpoint) {
    const step = findStep(vm, StepName.DiskTransfer);
    if (step) resetPrecopyTasks(c, vm, step);
    vm.phase = Phase.CopyDisks;
  } else {
    next(c, vm);
  }
}

/** Ends the last precopy round: counts it and schedules the next. */
export function endPrecopy(c: MigrationRunnerContext, vm: VMStatus): void {
  const { clock, settings } = c;
  vm.warm ??= { successes: 0, failures: 0, consecutiveFailures: 0 };
  const warm = vm.warm;
  const last = warm.precopies?.at(-1);
  if (last !== undefined) last.end = timestamp(clock);
  warm.successes++;
  warm.consecutiveFailures = 0;
  warm.nextPrecopyAt = formatTime(clock.now() + settings.precopyIntervalMs);
}

function resetPrecopyTasks(c: MigrationRunnerContext, vm: VMStatus, step: Step): void {
  delete step.completed;
  step.phase = 'Running';
  for (const task of step.tasks ?? []) {
    task.annotations = { ...task.annotations, Precopy: String(vm.warm?.precopies?.length ?? 0) };
    markReset(task);
    markStarted(task, c.clock);
    task.progress.completed = 0;
    delete task.reason;
  }
}
