import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { PlanStatus, Step, VMStatus } from './api/plan.js';
import { omitEmptyStatus } from './status-omitempty.js';
import { PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const AT = '2026-01-01T00:00:00Z';

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
  it('drops an empty omitempty field: "", false, 0, [] and an empty map', () => {
    const status: PlanStatus = {
      conditions: [],
      observedGeneration: 0,
      migration: { history: [{ conditions: [] } as never], vms: [zeroVM()] },
    };
    omitEmptyStatus(status);
    expect(status).toEqual({
      migration: {
        history: [{}],
        vms: [
          {
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
          },
        ],
      },
    });
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
    expect(status.conditions).toEqual([
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
    expect(vm && 'conditions' in vm).toBe(false);
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
    const keys = (o: object | undefined) => Object.keys(o ?? {}).sort();
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
});
