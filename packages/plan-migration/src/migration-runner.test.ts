import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { ConversionStatus, DiskTransfer, GuestConversion } from './adapter.js';
import type { Task, VMStatus } from './api/plan.js';
import { InMemoryDestination, PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const types = (h: { conditions?: Array<{ type: string; status: string }> }) =>
  (h.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);
type Script = Array<Omit<ConversionStatus, 'disks'> & { disks?: Array<[number, number]> }>;

/** An in-memory destination whose blank disks are allocated at once and whose conversion pods follow a script. */
class ScriptedConversion extends InMemoryDestination implements GuestConversion {
  readonly #disks = new Map<string, Task[]>();
  readonly #pods = new Set<string>();
  constructor(readonly scripts: Map<string, Script>) {
    super('target');
  }
  async allocateDisks(vm: VMStatus, tasks: Task[]): Promise<void> {
    this.#disks.set(vm.id ?? '', tasks);
  }
  async diskTransfers(vm: VMStatus): Promise<DiskTransfer[]> {
    return (this.#disks.get(vm.id ?? '') ?? []).map((t) => ({
      disk: t.name,
      phase: 'Succeeded',
      completedMiB: t.progress.total,
      totalMiB: t.progress.total,
    }));
  }
  async ensureConversionPod(vm: VMStatus): Promise<boolean> {
    this.#pods.add(vm.id ?? '');
    return true;
  }
  async conversionStatus(vm: VMStatus): Promise<ConversionStatus> {
    if (!this.#pods.has(vm.id ?? '')) return { phase: 'NotFound', disks: new Map() };
    const script = this.scripts.get(vm.id ?? '') ?? [];
    const next = (script.length > 1 ? script.shift() : script[0]) ?? { phase: 'Pending' };
    return { ...next, disks: new Map(next.disks ?? []) };
  }
}

describe('MigrationRunner guest conversion', () => {
  it('ova: allocates disks, converts, copies; a failed pod fails only its VM with the pod’s message', async () => {
    const destination = new ScriptedConversion(
      new Map<string, Script>([
        ['vm-0', [{ phase: 'Pending' }, { phase: 'Running' }, { phase: 'Succeeded' }]],
        ['vm-1', [{ phase: 'Running' }, { phase: 'Failed', message: 'no bootable disk' }]],
      ]),
    );
    const h = new PlanHarness({
      clock: new FakeClock(T0),
      vms: 2,
      disks: 2,
      diskMiB: 100,
      sourceType: 'ova',
      destination,
    });
    h.addMigration();
    await h.runToEnd();
    expect(h.planConditions()).toContain('Failed');
    const vm0 = h.vm('vm-0');
    expect(types(vm0)).toEqual(['Succeeded']);
    expect(vm0.pipeline.map((s) => s.completed !== undefined)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(vm0.pipeline.map((s) => [s.name, s.progress.completed, s.progress.total])).toEqual([
      ['Initialize', 0, 1],
      ['DiskAllocation', 200, 200],
      ['ImageConversion', 1, 1],
      ['DiskTransferV2v', 200, 200],
      ['VirtualMachineCreation', 1, 1],
    ]);
    const vm1 = h.vm('vm-1');
    expect(types(vm1)).toEqual(['Failed']);
    expect(vm1.error?.reasons).toEqual(['Guest conversion failed: no bootable disk']);
    expect(h.destination.list('VirtualMachine').map((o) => o.name)).toEqual(['vm-0']);
  });

  it('vSphere with shared disks: the first virt-v2v progress ends ImageConversion, then disks report progress', async () => {
    const copying: Script[number] = {
      phase: 'Running',
      disks: [
        [1, 40],
        [2, 10],
      ],
    };
    const destination = new ScriptedConversion(
      new Map<string, Script>([
        [
          'vm-0',
          [
            { phase: 'Running', disks: [[1, 0]] },
            copying,
            copying,
            {
              phase: 'Running',
              disks: [
                [1, 100],
                [2, 100],
              ],
            },
            { phase: 'Succeeded' },
          ],
        ],
      ]),
    );
    const h = new PlanHarness({
      clock: new FakeClock(T0),
      vms: 1,
      disks: 2,
      diskMiB: 100,
      sourceType: 'vsphere',
      sharedDisks: true,
      destination,
    });
    h.addMigration();
    while (h.plan.status?.migration?.vms?.[0]?.phase !== 'CopyDisksVirtV2V') await h.reconcile();
    expect(
      h.vm('vm-0').pipeline.find((s) => s.name === 'ImageConversion')?.completed,
    ).toBeDefined();
    await h.reconcile();
    const copy = h.vm('vm-0').pipeline.find((s) => s.name === 'DiskTransferV2v');
    expect(copy?.tasks?.map((t) => t.progress.completed)).toEqual([40, 10]);
    expect(copy?.progress.completed).toBe(50);
    await h.runToEnd();
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
  });

  it('without a guest conversion adapter an ova VM fails at its first conversion step', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, sourceType: 'ova' });
    h.addMigration();
    await h.runToEnd();
    expect(h.vm('vm-0').error?.reasons).toEqual([
      'Phase [CreateDataVolumes] needs a guest conversion adapter, which is not configured.',
    ]);
  });

  it('a conversion pod that cannot be made fails the step with the reason', async () => {
    const destination = new ScriptedConversion(new Map());
    destination.ensureConversionPod = async () => {
      throw new Error('VM vm-0: the source builder does not give the conversion pod’s environment');
    };
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, sourceType: 'ova', destination });
    h.addMigration();
    await h.runToEnd();
    expect(types(h.vm('vm-0'))).toEqual(['Failed']);
    expect(h.vm('vm-0').pipeline.find((s) => s.name === 'ImageConversion')?.error?.reasons).toEqual(
      ['VM vm-0: the source builder does not give the conversion pod’s environment'],
    );
  });
});
