import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { PlanStatus, Step, VMStatus } from './api/plan.js';
import { omitEmptyStatus, omitEmptyVM } from './status-omitempty.js';
import { PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const AT = '2026-01-01T00:00:00Z';
/** `x` as the status PUT writes it. */
const written = (x: unknown) => JSON.parse(JSON.stringify(x));

/** The status of one VM whose every `omitempty` field holds Go's zero value. */
function zeroVM(): VMStatus {
  return {
    id: 'vm-1',
    name: '',
    namespace: '',
    hooks: [],
    targetName: '',
    deleteVmOnFailMigration: false,
    phase: '',
    pipeline: [
      {
        name: 'DiskTransfer',
        description: '',
        phase: '',
        reason: '',
        progress: { completed: 0, total: 0 },
        annotations: {},
        tasks: [{ name: 'disk-0', reason: '', progress: { completed: 0, total: 0 } }],
      },
      { name: 'Initialize', progress: { completed: 0, total: 1 }, tasks: [] },
    ],
    warm: { successes: 0, failures: 0, consecutiveFailures: 0, precopies: [] },
    newName: '',
    conditions: [],
  };
}

describe('omitEmptyStatus (Go omitempty)', () => {
  it('omitEmptyVM drops an empty omitempty field of a VM: "", false, [] and an empty map', () => {
    const vm = zeroVM();
    omitEmptyVM(vm);
    expect(written(vm)).toStrictEqual({
      id: 'vm-1',
      phase: '',
      pipeline: [
        {
          name: 'DiskTransfer',
          progress: { completed: 0, total: 0 },
          tasks: [{ name: 'disk-0', progress: { completed: 0, total: 0 } }],
        },
        { name: 'Initialize', progress: { completed: 0, total: 1 } },
      ],
      warm: { successes: 0, failures: 0, consecutiveFailures: 0 },
    });
  });

  it('omitEmptyStatus drops the empty condition lists of the plan, its snapshots and its VMs, a zero observedGeneration, empty history and vms', () => {
    const status: PlanStatus = {
      conditions: [],
      observedGeneration: 0,
      migration: {
        history: [{ conditions: [] } as never],
        vms: [{ id: 'vm-1', phase: 'Started', pipeline: [], conditions: [] }],
      },
    };
    omitEmptyStatus(status);
    expect(written(status)).toStrictEqual({
      migration: { history: [{}], vms: [{ id: 'vm-1', phase: 'Started', pipeline: [] }] },
    });
    const empty: PlanStatus = { migration: { history: [], vms: [] } };
    omitEmptyStatus(empty);
    expect(written(empty)).toStrictEqual({ migration: {} });
  });

  it('keeps a set field, and the fields Go does not tag omitempty even when zero', () => {
    const step: Step = {
      name: 'DiskTransfer',
      description: 'Transfer disks.',
      phase: 'Running',
      reason: 'Transfer pending.',
      progress: { completed: 0, total: 2048 },
      annotations: { unit: 'MB' },
      started: AT,
      error: { phase: 'CopyDisks', reasons: [] },
    };
    const vm: VMStatus = {
      id: 'vm-1',
      name: 'web',
      phase: 'CopyDisks',
      pipeline: [step],
      restorePowerState: 'On',
      newName: 'web-1',
      deleteVmOnFailMigration: true,
      conditions: [
        { type: 'Pending', status: 'False', category: 'Advisory', lastTransitionTime: AT },
      ],
    };
    const status: PlanStatus = { observedGeneration: 3, migration: { started: AT, vms: [vm] } };
    const before = structuredClone(status);
    omitEmptyVM(vm);
    omitEmptyStatus(status);
    expect(status).toEqual(before);
  });

  it('drops a condition\'s empty reason, message, durable and items, keeping its status "False"', () => {
    const status: PlanStatus = {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          category: 'Required',
          reason: '',
          message: '',
          durable: false,
          items: [],
          lastTransitionTime: AT,
        },
      ],
    };
    omitEmptyStatus(status);
    expect(written(status.conditions)).toStrictEqual([
      { type: 'Ready', status: 'False', category: 'Required', lastTransitionTime: AT },
    ]);
  });

  it('a reconciled plan: a running VM without conditions has no `conditions` key; its disk tasks carry no description or phase before the transfer is read', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, disks: 2, diskMiB: 10 });
    h.addMigration();
    await h.reconcile();
    const [vm] = h.plan.status?.migration?.vms ?? [];
    expect(vm?.phase).not.toBe('Completed');
    expect(JSON.stringify(h.plan.status)).not.toContain('"conditions":[]');
    expect(Object.keys(written(vm))).not.toContain('conditions');
    const transfer = vm?.pipeline.find((s) => s.name === 'DiskTransfer');
    expect(transfer?.tasks?.map((t) => Object.keys(t).sort())).toEqual([
      ['annotations', 'name', 'progress'],
      ['annotations', 'name', 'progress'],
    ]);
  });

  it("a settled VM's status holds Forklift's fields and nothing else", async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 1, disks: 1, diskMiB: 10 });
    h.addMigration();
    await h.runToEnd();
    const [vm] = h.plan.status?.migration?.vms ?? [];
    // The keys as written (JSON).
    const keys = (o: object | undefined) => Object.keys(written(o ?? {})).sort();
    expect(keys(vm)).toEqual([
      'completed',
      'conditions',
      'id',
      'name',
      'phase',
      'pipeline',
      'restorePowerState',
      'started',
    ]);
    const transfer = vm?.pipeline.find((s) => s.name === 'DiskTransfer');
    expect(keys(transfer)).toEqual([
      'annotations',
      'completed',
      'description',
      'name',
      'phase',
      'progress',
      'started',
      'tasks',
    ]);
    expect(keys(transfer?.tasks?.[0])).toEqual([
      'annotations',
      'completed',
      'name',
      'phase',
      'progress',
      'reason',
      'started',
    ]);
  });

  it('no status written over a run (cold, a failed copy, a canceled VM, warm) holds an empty omitempty field', async () => {
    const runs: Array<[string, () => Promise<PlanHarness>]> = [
      [
        'cold, a failed copy, a canceled VM',
        async () => {
          const h = new PlanHarness({ clock: new FakeClock(T0), vms: 3, disks: 2, diskMiB: 10 });
          h.source.failDiskCopy('vm-1', 'disk-0', 'boom', 0);
          h.addMigration({ cancel: [{ id: 'vm-2' }] });
          return h;
        },
      ],
      [
        'warm, cut over at once',
        async () => {
          const clock = new FakeClock(T0);
          const h = new PlanHarness({ clock, vms: 2, diskMiB: 10, warm: true });
          h.addMigration({ cutover: new Date(T0).toISOString() });
          return h;
        },
      ],
    ];
    for (const [name, make] of runs) {
      const h = await make();
      for (let pass = 0; pass < 500; pass++) {
        const reQ = await h.reconcile();
        expect(emptyOmitempty(written(h.plan.status)), `${name}, pass ${pass}`).toEqual([]);
        if (reQ === 0) break;
        (h.clock as FakeClock).step(reQ);
      }
      expect(h.plan.status?.migration?.completed, name).toBeDefined();
    }
  });
});

// Go's `omitempty` fields of each struct of the status, for the check below.
const OMITEMPTY: Record<string, readonly string[]> = {
  plan: ['conditions', 'observedGeneration'],
  migration: ['started', 'completed', 'history', 'vms'],
  snapshot: ['conditions'],
  vm: [
    'started',
    'completed',
    'id',
    'name',
    'namespace',
    'type',
    'hooks',
    'targetName',
    'pvcNameTemplate',
    'volumeNameTemplate',
    'networkNameTemplate',
    'deleteVmOnFailMigration',
    'error',
    'warm',
    'restorePowerState',
    'newName',
    'conditions',
  ],
  task: ['started', 'completed', 'description', 'phase', 'reason', 'annotations', 'error', 'tasks'],
  condition: ['reason', 'message', 'suggestion', 'durable', 'items'],
  warm: ['nextPrecopyAt', 'precopies'],
};

/** The paths of the omitempty fields of `status` that hold Go's zero value. */
function emptyOmitempty(status: PlanStatus | undefined): string[] {
  const found: string[] = [];
  const zero = (v: unknown) =>
    v === '' ||
    v === false ||
    v === 0 ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  const check = (o: object | undefined, kind: string, path: string) => {
    for (const key of OMITEMPTY[kind] ?? [])
      if (o !== undefined && key in o && zero((o as Record<string, unknown>)[key]))
        found.push(`${path}.${key}`);
  };
  const conditions = (list: object[] | undefined, path: string) =>
    list?.forEach((c, i) => {
      check(c, 'condition', `${path}.conditions[${i}]`);
    });
  check(status, 'plan', 'status');
  conditions(status?.conditions, 'status');
  const migration = status?.migration;
  check(migration, 'migration', 'migration');
  migration?.history?.forEach((s, i) => {
    check(s, 'snapshot', `history[${i}]`);
    conditions(s.conditions, `history[${i}]`);
  });
  migration?.vms?.forEach((vm, i) => {
    const at = `vms[${i}]`;
    check(vm, 'vm', at);
    conditions(vm.conditions, at);
    if (vm.warm) check(vm.warm, 'warm', `${at}.warm`);
    vm.pipeline.forEach((step, j) => {
      check(step, 'task', `${at}.pipeline[${j}]`);
      step.tasks?.forEach((t, k) => {
        check(t, 'task', `${at}.pipeline[${j}].tasks[${k}]`);
      });
    });
  });
  return found;
}
