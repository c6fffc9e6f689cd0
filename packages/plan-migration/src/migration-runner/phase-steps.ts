//! The step a VM's phase belongs to, and the move to the next phase, shared by every phase.

import type { Step, VMStatus } from '../api/plan.js';
import { nextPhase } from '../base-migrator.js';
import { addError, findStep, markStarted } from '../vm-status.js';
import type { MigrationRunnerContext } from './context.js';

/** The step of the VM's phase; undefined (an error on the VM) when missing. */
export function phaseStep(c: MigrationRunnerContext, vm: VMStatus): Step | undefined {
  const name = c.migrator.step(vm);
  const step = findStep(vm, name);
  if (step === undefined) addError(vm, `Step '${name}' not found`);
  return step;
}

/** The step of the VM's phase, marked started and Running; undefined (an error on the VM) when missing. */
export function runningStep(c: MigrationRunnerContext, vm: VMStatus): Step | undefined {
  const step = phaseStep(c, vm);
  if (step !== undefined) {
    markStarted(step, c.clock);
    step.phase = 'Running';
  }
  return step;
}

/** Moves the VM to the next phase of its itinerary. */
export function next(c: MigrationRunnerContext, vm: VMStatus): void {
  nextPhase(c.migrator, vm, c.clock);
}
