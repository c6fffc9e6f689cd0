import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { PlanVM } from '../api/plan.js';
import { PlanHarness } from '../testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const NAMES = ['web', 'db', 'cache'];

/** A plan over VMs `vm-0..2` named web, db and cache, whose spec lists `refs`. */
function plan(refs: PlanVM[], names: readonly string[] = NAMES) {
  const h = new PlanHarness({ clock: new FakeClock(T0), vms: names.length, names });
  h.plan.spec.vms = refs;
  return h;
}
const condition = (h: PlanHarness, type: string) =>
  h.plan.status?.conditions?.find((c) => c.type === type);

/** Runs one migration of the plan to its end and returns the destination's objects. */
async function migrate(h: PlanHarness) {
  h.addMigration();
  await h.runToEnd();
  return {
    vms: (h.plan.status?.migration?.vms ?? []).map((v) => ({ id: v.id, name: v.name })),
    dataVolumes: h.destination.list('DataVolume').map((o) => [o.name, o.vmID, o.owner]),
    virtualMachines: h.destination.list('VirtualMachine').map((o) => [o.name, o.vmID]),
  };
}

describe('VM references by id or name', () => {
  it('name-only: each name resolves to its VM, the ids go to the status and the destination objects', async () => {
    const h = plan([{ name: 'web' }, { name: 'db' }]);
    const got = await migrate(h);
    expect(condition(h, 'DuplicateVM')).toBeUndefined();
    expect(condition(h, 'Succeeded')?.status).toBe('True');
    expect(got.vms).toEqual([
      { id: 'vm-0', name: 'web' },
      { id: 'vm-1', name: 'db' },
    ]);
    expect(got.dataVolumes).toEqual([
      ['vm-0-disk-0', 'vm-0', 'web'],
      ['vm-1-disk-0', 'vm-1', 'db'],
    ]);
    expect(got.virtualMachines).toEqual([
      ['web', 'vm-0'],
      ['db', 'vm-1'],
    ]);
  });

  it('id-only: the status takes the inventory name; the VM is named after it', async () => {
    const h = plan([{ id: 'vm-2' }, { id: 'vm-0' }]);
    const got = await migrate(h);
    expect(got.vms).toEqual([
      { id: 'vm-2', name: 'cache' },
      { id: 'vm-0', name: 'web' },
    ]);
    expect(got.dataVolumes.map((d) => d[1])).toEqual(['vm-2', 'vm-0']);
    expect(got.virtualMachines).toEqual([
      ['cache', 'vm-2'],
      ['web', 'vm-0'],
    ]);
  });

  it('mixed: id, name and both; a name naming a VM also listed by id is a DuplicateVM', async () => {
    const h = plan([{ id: 'vm-0' }, { name: 'db' }, { id: 'vm-2', name: 'cache' }]);
    const got = await migrate(h);
    expect(got.vms.map((v) => v.id)).toEqual(['vm-0', 'vm-1', 'vm-2']);
    expect(got.dataVolumes.map((d) => d[1])).toEqual(['vm-0', 'vm-1', 'vm-2']);
    expect(got.virtualMachines).toContainEqual(['db', 'vm-1']);

    const dup = plan([{ id: 'vm-0' }, { name: 'web' }]);
    await dup.reconcile();
    expect(condition(dup, 'DuplicateVM')).toMatchObject({
      reason: 'NotUnique',
      items: [" id:vm-0 name:'web' "],
    });
  });

  it('VMNotFound for an unknown name, VMNotUnique (Ambiguous) for a name several VMs share', async () => {
    const h = plan([{ name: 'nope' }, { name: 'twin' }], ['twin', 'twin', 'other']);
    await h.reconcile();
    expect(condition(h, 'VMNotFound')).toMatchObject({
      category: 'Critical',
      items: [" id: name:'nope' "],
    });
    expect(condition(h, 'VMNotUnique')).toMatchObject({
      reason: 'Ambiguous',
      category: 'Critical',
      items: [" id: name:'twin' "],
    });
    expect(condition(h, 'DuplicateVM')).toBeUndefined();
    expect(condition(h, 'Ready')).toBeUndefined();
  });

  it('once in the status, a name keeps its resolved id while the plan executes', async () => {
    const h = plan([{ name: 'web' }]);
    h.addMigration();
    await h.reconcile();
    await h.reconcile();
    expect(condition(h, 'Executing')?.status).toBe('True');
    // Each reconcile starts from the spec as stored: the name only.
    h.plan.spec.vms = [{ name: 'web' }];
    await h.reconcile();
    expect(h.plan.status?.migration?.vms?.map((v) => v.id)).toEqual(['vm-0']);
    await h.runToEnd();
    expect(h.destination.list('VirtualMachine').map((o) => o.vmID)).toEqual(['vm-0']);
  });
});
