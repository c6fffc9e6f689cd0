//! Runs a VM's current phase of the built-in pipeline (Forklift's migrator/base execute switch).

import type { VMStatus } from '../api/plan.js';
import { Phase } from '../phases.js';
import { addError, markCompleted, markStarted } from '../vm-status.js';
import type { MigrationRunnerContext } from './context.js';
import { allocateDisks, copyDisks, createDataVolumes, finalize } from './disk-transfer-phases.js';
import { convertGuest, createGuestConversionPod } from './guest-conversion-phases.js';
import { runHookPhase } from './hook-phase.js';
import { next, phaseStep, runningStep } from './phase-steps.js';
import { setNewName } from './vm-name.js';
import {
  addCheckpoint,
  copyingPaused,
  createSnapshot,
  removeSnapshot,
  waitForSnapshot,
} from './warm-phases.js';

/** Runs the VM's current phase; an unknown phase is an error on the VM and completes it. */
export async function executePhase(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const { client } = c;
  switch (vm.phase) {
    case Phase.Started:
      return start(c, vm);
    case Phase.PreHook:
    case Phase.PostHook:
      return runHookPhase(c, vm);
    case Phase.StorePowerState:
      vm.restorePowerState = await client.powerState(vm);
      next(c, vm);
      return;
    case Phase.PowerOffSource:
      await client.powerOff(vm);
      next(c, vm);
      return;
    case Phase.WaitForPowerOff:
      if (await client.poweredOff(vm)) next(c, vm);
      return;
    case Phase.CreateDataVolumes:
      return createDataVolumes(c, vm);
    case Phase.AllocateDisks:
      return allocateDisks(c, vm);
    case Phase.CreateGuestConversionPod:
      return createGuestConversionPod(c, vm);
    case Phase.ConvertGuest:
    case Phase.CopyDisksVirtV2V:
      return convertGuest(c, vm);
    case Phase.CopyDisks:
      return copyDisks(c, vm);
    case Phase.CopyingPaused:
      copyingPaused(c, vm);
      return;
    case Phase.CreateInitialSnapshot:
    case Phase.CreateSnapshot:
    case Phase.CreateFinalSnapshot:
      return createSnapshot(c, vm);
    case Phase.WaitForInitialSnapshot:
    case Phase.WaitForSnapshot:
    case Phase.WaitForFinalSnapshot:
      return waitForSnapshot(c, vm);
    case Phase.StoreInitialSnapshotDeltas:
    case Phase.StoreSnapshotDeltas:
    case Phase.WaitForPreviousSnapshotRemoval:
    case Phase.WaitForPenultimateSnapshotRemoval:
    case Phase.WaitForFinalSnapshotRemoval:
      next(c, vm);
      return;
    case Phase.RemovePreviousSnapshot:
    case Phase.RemovePenultimateSnapshot:
    case Phase.RemoveFinalSnapshot:
      return removeSnapshot(c, vm);
    case Phase.AddCheckpoint:
    case Phase.AddFinalCheckpoint:
      return addCheckpoint(c, vm);
    case Phase.Finalize:
      return finalize(c, vm);
    case Phase.CreateVM:
      return createVM(c, vm);
    case Phase.ConvertOpenstackSnapshot:
    case Phase.WaitForGuestReboots:
    case Phase.PreflightInspection: {
      const step = phaseStep(c, vm);
      if (step)
        addError(
          step,
          `Phase [${vm.phase}] needs a guest conversion adapter, which is not configured.`,
        );
      return;
    }
    case Phase.Completed:
      markCompleted(vm, c.clock);
      return;
    default:
      addError(vm, `Phase [${vm.phase}] unknown`);
      vm.phase = Phase.Completed;
  }
}

/** Started: names the VM, then clears what an earlier attempt left (its transfer and objects). */
async function start(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  markStarted(vm, c.clock);
  const problem = await setNewName(c, vm);
  if (problem !== undefined) {
    addError(step, problem);
    return;
  }
  // Leftovers of an earlier attempt: its transfer and what it created.
  await c.client.cancelTransfer(vm);
  await c.destination.cleanup(vm, { deleteVM: false });
  next(c, vm);
}

/** CreateVM: the destination VM, running as the target power state (or the source's) says. */
async function createVM(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  const target = vm.targetPowerState ?? c.plan.spec.targetPowerState ?? 'auto';
  const runningVM = target === 'on' || (target === 'auto' && vm.restorePowerState === 'On');
  await c.ensurer.ensureVM(vm, { running: runningVM });
  step.progress.completed = step.progress.total;
  next(c, vm);
}
