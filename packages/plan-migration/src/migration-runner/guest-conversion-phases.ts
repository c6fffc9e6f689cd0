//! The guest conversion phases (virt-v2v): create the conversion pod, follow its conversion and copy.

import type { GuestConversion } from '../adapter.js';
import type { Step, VMStatus } from '../api/plan.js';
import { StepName } from '../phases.js';
import {
  addError,
  markCompleted,
  markedCompleted,
  markStarted,
  reflectTasks,
} from '../vm-status.js';
import type { MigrationRunnerContext } from './context.js';
import { next, runningStep } from './phase-steps.js';

/** The guest conversion adapter, or undefined after putting an error on `step`. */
export function guestConversionFor(
  c: MigrationRunnerContext,
  vm: VMStatus,
  step: Step,
): GuestConversion | undefined {
  const conversion = c.guestConversion;
  if (conversion === undefined) {
    addError(
      step,
      `Phase [${vm.phase}] needs a guest conversion adapter, which is not configured.`,
    );
  }
  return conversion;
}

/** CreateGuestConversionPod: ensures the pod, moving on once it is ready. */
export async function createGuestConversionPod(
  c: MigrationRunnerContext,
  vm: VMStatus,
): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  const conversion = guestConversionFor(c, vm, step);
  if (conversion === undefined) return;
  let ready: boolean;
  try {
    ready = await conversion.ensureConversionPod(vm);
  } catch (error) {
    // As upstream: a pod that cannot be made fails the step (and the VM), not the pass.
    addError(step, error instanceof Error ? error.message : String(error));
    return;
  }
  if (ready) next(c, vm);
}

/** ConvertGuest and CopyDisksVirtV2V: follow the conversion pod until its step completes. */
export async function convertGuest(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) return;
  const conversion = guestConversionFor(c, vm, step);
  if (conversion === undefined) return;
  await updateConversion(c, vm, step, conversion);
  if (markedCompleted(step) && step.error === undefined) next(c, vm);
}

/**
 * Reads the conversion pod (upstream's updateConversionProgress): Succeeded completes the
 * step and its tasks; Failed completes it with the pod's message; a missing pod is an
 * error; while it runs, the copy progress of each disk goes on the DiskTransferV2v tasks,
 * and on vSphere the first progress completes ImageConversion (virt-v2v is copying).
 */
async function updateConversion(
  c: MigrationRunnerContext,
  vm: VMStatus,
  step: Step,
  conversion: GuestConversion,
): Promise<void> {
  const { clock } = c;
  const status = await conversion.conversionStatus(vm);
  switch (status.phase) {
    case 'Succeeded':
      step.progress.completed = step.progress.total;
      for (const task of step.tasks ?? []) {
        markStarted(task, clock);
        task.progress.completed = task.progress.total;
        task.phase = 'Completed';
        markCompleted(task, clock);
      }
      markCompleted(step, clock);
      return;
    case 'Failed':
      addError(
        step,
        status.message
          ? `Guest conversion failed: ${status.message}`
          : 'Guest conversion failed. See pod logs for details.',
      );
      markCompleted(step, clock);
      return;
    case 'NotFound':
      addError(step, 'Guest conversion pod not found');
      markCompleted(step, clock);
      return;
    default: {
      const copying = [...status.disks.values()].some((percent) => percent > 0);
      if (step.name === StepName.ImageConversion) {
        // On vSphere virt-v2v converts, then copies: the first progress ends the conversion.
        if (copying && c.sourceType === 'vsphere') {
          step.progress.completed = step.progress.total;
          markCompleted(step, clock);
        }
        return;
      }
      if (step.name !== StepName.DiskTransferV2v) return;
      for (const [disk, percent] of status.disks) {
        const task = step.tasks?.[disk - 1];
        if (task === undefined) continue;
        markStarted(task, clock);
        task.progress.completed = Math.floor((task.progress.total * percent) / 100);
      }
      reflectTasks(step, clock);
    }
  }
}
