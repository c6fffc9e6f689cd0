//! The PreHook and PostHook phases: run the VM's hook for the step until it reports done.

import type { VMStatus } from '../api/plan.js';
import { Phase } from '../phases.js';
import { addError, markCompleted } from '../vm-status.js';
import type { MigrationRunnerContext } from './context.js';
import { next, runningStep } from './phase-steps.js';

/** Runs the hook of the VM's hook phase; the step fails when there is no hook or no runner. */
export async function runHookPhase(c: MigrationRunnerContext, vm: VMStatus): Promise<void> {
  const step = runningStep(c, vm);
  if (step === undefined) {
    vm.phase = Phase.Completed;
    return;
  }
  const hook = (vm.hooks ?? []).find((h) => h.step === vm.phase);
  if (hook === undefined || c.hookRunner === undefined) {
    addError(
      step,
      hook === undefined ? `No hook for step ${vm.phase}.` : 'No hook runner configured.',
    );
    return;
  }
  const result = await c.hookRunner.run(c.plan, vm, hook, {
    inventory: c.inventory,
    ...(c.sourceType !== undefined && { sourceType: c.sourceType }),
  });
  if (!result.done) return;
  if (result.failed !== undefined) {
    addError(step, result.failed);
    return;
  }
  step.progress.completed = 1;
  markCompleted(step, c.clock);
  next(c, vm);
}
