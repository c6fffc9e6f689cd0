//! Timed objects, steps, tasks and the migration status of a VM (Forklift's api/plan).

import type { Clock } from '@ctrlkit/core';
import type { MigrationStatus, PipelineError, Step, Task, VMStatus } from './api/plan.js';
import type { Ref } from './api/ref.js';
import { timestamp } from './internal/time.js';

/** Step and task phases. */
export const StepPhase = {
  Pending: 'Pending',
  Running: 'Running',
  Completed: 'Completed',
} as const;

/** Anything with `started`/`completed`. */
export interface Timed {
  started?: string;
  completed?: string;
}

/** Clears `started` and `completed`. */
export function markReset(t: Timed): void {
  delete t.started;
  delete t.completed;
}

/** Sets `started` if unset, clearing `completed`. */
export function markStarted(t: Timed, clock: Clock): void {
  if (t.started === undefined) {
    t.started = timestamp(clock);
    delete t.completed;
  }
}

/** Marks started (if needed) and sets `completed` if unset. */
export function markCompleted(t: Timed, clock: Clock): void {
  markStarted(t, clock);
  t.completed ??= timestamp(clock);
}

/** `started` is set. */
export function markedStarted(t: Timed): boolean {
  return t.started !== undefined;
}

/** `completed` is set. */
export function markedCompleted(t: Timed): boolean {
  return t.completed !== undefined;
}

/** Started and not completed. */
export function running(t: Timed): boolean {
  return markedStarted(t) && !markedCompleted(t);
}

/** Adds reasons to an error, creating it with `phase` and skipping duplicates. */
export function addError(
  holder: { error?: PipelineError; phase?: string },
  ...reasons: string[]
): void {
  holder.error ??= { phase: holder.phase ?? '', reasons: [] };
  for (const r of reasons) if (!holder.error.reasons.includes(r)) holder.error.reasons.push(r);
}

/** The step named `name`. */
export function findStep(vm: Pick<VMStatus, 'pipeline'>, name: string): Step | undefined {
  return vm.pipeline.find((s) => s.name === name);
}

/** The task named `name` of a step. */
export function findTask(step: Step, name: string): Task | undefined {
  return step.tasks?.find((t) => t.name === name);
}

/**
 * Rolls a step's tasks up into it: completed progress is the sum of the tasks', task
 * errors become step errors, started if any task started, completed if all completed.
 */
export function reflectTasks(step: Step, clock: Clock): void {
  const tasks = step.tasks ?? [];
  let started = 0;
  let completedCount = 0;
  let completed = 0;
  for (const task of tasks) {
    if (markedStarted(task)) started++;
    if (markedCompleted(task)) completedCount++;
    completed += task.progress.completed;
    if (task.error) addError(step, ...task.error.reasons);
  }
  step.progress.completed = completed;
  if (started > 0) markStarted(step, clock);
  if (completedCount === tasks.length) markCompleted(step, clock);
}

/**
 * Rolls a VM's pipeline up into it: step errors become the VM's error, started if any
 * step started, completed if all did.
 */
export function reflectPipeline(vm: VMStatus, clock: Clock): void {
  let started = 0;
  let completed = 0;
  for (const step of vm.pipeline) {
    if (markedStarted(step)) started++;
    if (markedCompleted(step)) completed++;
    if (step.error) addError(vm, ...step.error.reasons);
  }
  if (started > 0) markStarted(vm, clock);
  if (completed === vm.pipeline.length) markCompleted(vm, clock);
}

/** Marks every started step (and its started tasks) completed. */
export function markStartedStepsCompleted(vm: VMStatus, clock: Clock): void {
  for (const step of vm.pipeline) {
    if (!markedStarted(step)) continue;
    markCompleted(step, clock);
    for (const task of step.tasks ?? []) if (markedStarted(task)) markCompleted(task, clock);
  }
}

/** The status of the VM `ref`: by non-empty id first, then by name for entries without id. */
export function findVM(status: MigrationStatus | undefined, ref: Ref): VMStatus | undefined {
  const vms = status?.vms ?? [];
  return (
    vms.find((vm) => vm.id !== undefined && vm.id !== '' && vm.id === ref.id) ??
    vms.find((vm) => !vm.id && vm.name !== undefined && vm.name !== '' && vm.name === ref.name)
  );
}
