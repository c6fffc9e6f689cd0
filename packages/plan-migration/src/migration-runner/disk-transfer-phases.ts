//! The disk phases of a CDI import: create the DataVolumes, follow the transfer until every disk is copied.

import type { DiskTransfer } from '../adapter.js';
import type { Step, VMStatus } from '../api/plan.js';
import { isWarm } from '../api/plan.js';
import { StepName, TRANSFER_COMPLETED } from '../phases.js';
import {
  addError,
  findStep,
  markCompleted,
  markedCompleted,
  markStarted,
  reflectTasks,
} from '../vm-status.js';
import type { MigrationRunnerContext } from './context.js';
import { guestConversionFor } from './guest-conversion-phases.js';
import { next, runningStep } from './phase-steps.js';
import { endPrecopy } from './warm-phases.js';

/**
 * CreateDataVolumes: blank volumes for virt-v2v to fill when the itinerary allocates disks,
 * else the DataVolumes of a CDI import and the start of the transfer.
 */
export async function createDataVolumes(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const allocation = findStep(vm, StepName.DiskAllocation);
  if (allocation !== undefined) {
    // virt-v2v copies the disks: blank volumes for it to fill, no CDI import.
    const conversion = guestConversionFor(c, vm, allocation);
    if (conversion === undefined) return;
    await conversion.allocateDisks(vm, allocation.tasks ?? (await c.builder.tasks(vm)));
    next(c, vm);
    return;
  }
  const disks = findStep(vm, StepName.DiskTransfer);
  await c.ensurer.ensureDataVolumes(vm, disks?.tasks ?? (await c.builder.tasks(vm)));
  await c.client.startTransfer(vm, 0);
  next(c, vm);
}

/** AllocateDisks: waits for the blank volumes, which only a destination reporting transfers can tell. */
export async function allocateDisks(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  if (c.destination.diskTransfers === undefined) {
    addError(step, `Phase [${vm.phase}] needs a destination that reports disk transfers.`);
    return;
  }
  if (await updateTransfer(c, vm, step)) next(c, vm);
}

/** CopyDisks: follows the transfer; a warm plan ends the precopy round when it is done. */
export async function copyDisks(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  if (await updateTransfer(c, vm, step)) {
    if (isWarm(c.plan)) endPrecopy(c, vm);
    next(c, vm);
  }
}

/** Finalize: follows the last (cutover) transfer of a warm migration. */
export async function finalize(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  if (await updateTransfer(c, vm, step)) {
    endPrecopy(c, vm);
    next(c, vm);
  }
}

/** The disks' transfer: the destination's importer status when it reports one, else the source's. */
function transfers(c: MigrationRunnerContext, vm: VMStatus): Promise<DiskTransfer[]> {
  const { destination, client } = c;
  return destination.diskTransfers ? destination.diskTransfers(vm) : client.transferStatus(vm);
}

/** Copies the transfer's status into the step's tasks; true when every disk is done. */
async function updateTransfer(
  c: MigrationRunnerContext,
  vm: VMStatus,
  step: Step,
): Promise<boolean> {
  const { clock } = c;
  const all = await transfers(c, vm);
  for (const task of step.tasks ?? []) {
    const t = all.find((x) => x.disk === task.name);
    if (t === undefined) continue;
    switch (t.phase) {
      case 'Succeeded':
        markStarted(task, clock);
        task.progress.completed = task.progress.total;
        task.reason = TRANSFER_COMPLETED;
        task.phase = 'Completed';
        markCompleted(task, clock);
        break;
      case 'Pending':
      case 'ImportScheduled':
        task.phase = 'Pending';
        task.reason = t.phase === 'Pending' ? 'Transfer pending.' : 'Import scheduled.';
        break;
      case 'ImportInProgress':
        markStarted(task, clock);
        task.phase = 'Running';
        task.progress.completed = Math.floor(
          (t.completedMiB / Math.max(1, t.totalMiB)) * task.progress.total,
        );
        break;
      case 'Failed':
        markStarted(task, clock);
        addError(task, t.error ?? 'Transfer failed.');
        break;
    }
  }
  reflectTasks(step, clock);
  return step.error === undefined && markedCompleted(step);
}
