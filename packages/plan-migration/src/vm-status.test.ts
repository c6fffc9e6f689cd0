import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { Step, VMStatus } from './api/plan.js';
import {
  addError,
  findStep,
  findTask,
  findVM,
  markCompleted,
  markReset,
  markStarted,
  markStartedStepsCompleted,
  reflectPipeline,
  reflectTasks,
  running,
} from './vm-status.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function step(name: string, tasks?: Step['tasks']): Step {
  return { name, progress: { completed: 0, total: 1 }, phase: 'Pending', ...(tasks && { tasks }) };
}

describe('Timed', () => {
  it('VMStatus timing: markStarted sets started once and clears completed; markCompleted implies started', () => {
    const clock = new FakeClock(T0);
    const t: { started?: string; completed?: string } = {};
    markCompleted(t, clock);
    expect(t).toEqual({ started: '2026-01-01T00:00:00Z', completed: '2026-01-01T00:00:00Z' });
    clock.step(2_000);
    markStarted(t, clock);
    expect(t.started).toBe('2026-01-01T00:00:00Z');
    markReset(t);
    expect(t).toEqual({});
    markStarted(t, clock);
    expect(running(t)).toBe(true);
    markCompleted(t, clock);
    expect(running(t)).toBe(false);
  });
});

describe('VMStatus and Step', () => {
  it('VMStatus errors: addError keeps the phase of the first error and dedupes reasons', () => {
    const vm = { phase: 'CopyDisks' } as {
      phase: string;
      error?: { phase: string; reasons: string[] };
    };
    addError(vm, 'a', 'b');
    vm.phase = 'CreateVM';
    addError(vm, 'b', 'c');
    expect(vm.error).toEqual({ phase: 'CopyDisks', reasons: ['a', 'b', 'c'] });
  });

  it('FindStep and FindTask', () => {
    const vm = {
      pipeline: [
        step('Initialize'),
        step('DiskTransfer', [{ name: 'd1', progress: { completed: 0, total: 5 } }]),
      ],
    };
    expect(findStep(vm, 'DiskTransfer')?.name).toBe('DiskTransfer');
    expect(findStep(vm, 'Nope')).toBeUndefined();
    const s = findStep(vm, 'DiskTransfer');
    expect(s && findTask(s, 'd1')?.progress.total).toBe(5);
  });

  it('ReflectTasks sums progress, copies errors, starts and completes the step', () => {
    const clock = new FakeClock(T0);
    const s = step('DiskTransfer', [
      { name: 'd1', progress: { completed: 10, total: 10 }, started: 'x', completed: 'y' },
      {
        name: 'd2',
        progress: { completed: 4, total: 10 },
        started: 'x',
        error: { phase: 'p', reasons: ['boom'] },
      },
    ]);
    reflectTasks(s, clock);
    expect(s.progress.completed).toBe(14);
    expect(s.started).toBeDefined();
    expect(s.completed).toBeUndefined();
    expect(s.error?.reasons).toEqual(['boom']);
    s.tasks![1]!.completed = 'z';
    reflectTasks(s, clock);
    expect(s.completed).toBeDefined();
  });

  it('ReflectPipeline: started if any step started, completed if all, step errors on the VM', () => {
    const clock = new FakeClock(T0);
    const vm: VMStatus = { id: 'vm-1', phase: 'Started', pipeline: [step('A'), step('B')] };
    reflectPipeline(vm, clock);
    expect(vm.started).toBeUndefined();
    markStarted(vm.pipeline[0]!, clock);
    vm.pipeline[0]!.error = { phase: 'Started', reasons: ['bad'] };
    reflectPipeline(vm, clock);
    expect(vm.started).toBeDefined();
    expect(vm.completed).toBeUndefined();
    expect(vm.error?.reasons).toEqual(['bad']);
    markCompleted(vm.pipeline[0]!, clock);
    markCompleted(vm.pipeline[1]!, clock);
    reflectPipeline(vm, clock);
    expect(vm.completed).toBeDefined();
  });

  it('markStartedStepsCompleted completes only started steps and tasks', () => {
    const clock = new FakeClock(T0);
    const vm: VMStatus = {
      id: 'v',
      phase: 'CopyDisks',
      pipeline: [step('A'), step('B', [{ name: 't', progress: { completed: 0, total: 1 } }])],
    };
    markStarted(vm.pipeline[0]!, clock);
    markStartedStepsCompleted(vm, clock);
    expect(vm.pipeline[0]!.completed).toBeDefined();
    expect(vm.pipeline[1]!.completed).toBeUndefined();
  });

  it('findVM matches by id first, then by name for entries without id', () => {
    const status = {
      vms: [
        { id: '', name: 'web', phase: 'x', pipeline: [] },
        { id: 'id-2', name: 'db', phase: 'x', pipeline: [] },
      ],
    };
    expect(findVM(status, { id: 'id-2' })?.name).toBe('db');
    expect(findVM(status, { name: 'web' })?.name).toBe('web');
    expect(findVM(status, { id: 'nope', name: 'db' })).toBeUndefined();
  });
});
