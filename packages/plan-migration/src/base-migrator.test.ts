import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { InventoryVM } from './adapter.js';
import type { Plan, PlanVM, Task } from './api/plan.js';
import type { ProviderType } from './api/provider.js';
import { BaseMigrator, nextPhase } from './base-migrator.js';
import { conditionsOf } from './conditions.js';
import { migrationSettings } from './settings.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function plan(spec: Partial<Plan['spec']> = {}): Plan {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u' },
    spec: {
      provider: { source: { name: 's' }, destination: { name: 'd' } },
      targetNamespace: 'target',
      map: { network: { name: 'n' }, storage: { name: 's' } },
      vms: [{ id: 'vm-1' }],
      ...spec,
    },
  };
}

function migrator(
  sourceType: ProviderType,
  p = plan(),
  inv: Partial<InventoryVM> = {},
  settings = {},
) {
  const tasks: Task[] = [
    { name: 'disk-0', progress: { completed: 0, total: 100 } },
    { name: 'disk-1', progress: { completed: 0, total: 50 } },
  ];
  const vm: InventoryVM = {
    id: 'vm-1',
    name: 'one',
    powerState: 'On',
    disks: [],
    networks: [],
    ...inv,
  };
  return new BaseMigrator({
    plan: p,
    sourceType,
    clock: new FakeClock(T0),
    settings: migrationSettings(settings),
    builder: { tasks: async () => structuredClone(tasks) },
    inventory: new Map([['vm-1', vm]]),
    // Forklift's itineraries as they are; what the default leaves off is tested apart.
    unsupportedPhases: new Set(),
  });
}

const names = (m: BaseMigrator, vm: PlanVM) =>
  m
    .itinerary(vm)
    .list()
    .map((s) => s.name);

describe('itinerary selection', () => {
  it('cold, simulated source: CDI copy, no conversion, no hooks', () => {
    expect(names(migrator('simulated'), { id: 'vm-1' })).toEqual([
      'Started',
      'StorePowerState',
      'PowerOffSource',
      'WaitForPowerOff',
      'CreateDataVolumes',
      'CopyDisks',
      'CreateVM',
      'Completed',
    ]);
  });

  it('cold, hooks are kept only when the VM has one for the step', () => {
    const vm: PlanVM = { id: 'vm-1', hooks: [{ step: 'PostHook', hook: { name: 'h' } }] };
    const list = names(migrator('simulated'), vm);
    expect(list).not.toContain('PreHook');
    expect(list.at(-2)).toBe('PostHook');
  });

  it('cold vSphere: guest conversion after CDI copy; shared disks switch to virt-v2v', () => {
    expect(names(migrator('vsphere'), { id: 'vm-1' })).toEqual([
      'Started',
      'StorePowerState',
      'PowerOffSource',
      'WaitForPowerOff',
      'CreateDataVolumes',
      'CopyDisks',
      'CreateGuestConversionPod',
      'ConvertGuest',
      'CreateVM',
      'Completed',
    ]);
    const shared = migrator('vsphere', plan(), {
      disks: [{ id: 'd', capacityMiB: 1, datastore: 'x', shared: true }],
    });
    expect(names(shared, { id: 'vm-1' })).toEqual([
      'Started',
      'StorePowerState',
      'PowerOffSource',
      'WaitForPowerOff',
      'CreateDataVolumes',
      'AllocateDisks',
      'CreateGuestConversionPod',
      'ConvertGuest',
      'CopyDisksVirtV2V',
      'CreateVM',
      'Completed',
    ]);
  });

  it('cold OVA always copies with virt-v2v; openstack converts its snapshot', () => {
    const ova = names(migrator('ova'), { id: 'vm-1' });
    expect(ova).toContain('AllocateDisks');
    expect(ova).toContain('CopyDisksVirtV2V');
    expect(ova).not.toContain('CopyDisks');
    expect(names(migrator('openstack'), { id: 'vm-1' })).toContain('ConvertOpenstackSnapshot');
  });

  it('windows guests wait for reboots unless the target is off or the feature is off', () => {
    expect(
      names(migrator('vsphere', plan(), { guestOS: 'windows2019srv_64Guest' }), { id: 'vm-1' }),
    ).toContain('WaitForGuestReboots');
    expect(
      names(migrator('vsphere', plan(), { guestOS: 'windows' }), {
        id: 'vm-1',
        targetPowerState: 'off',
      }),
    ).not.toContain('WaitForGuestReboots');
    expect(
      names(migrator('vsphere', plan(), { guestOS: 'windows' }, { windowsWaitForReboot: false }), {
        id: 'vm-1',
      }),
    ).not.toContain('WaitForGuestReboots');
  });

  it('warm vSphere keeps the snapshot phases; warm elsewhere drops them', () => {
    const vs = names(migrator('vsphere', plan({ warm: true })), { id: 'vm-1' });
    expect(vs).toContain('StoreInitialSnapshotDeltas');
    expect(vs).toContain('WaitForFinalSnapshotRemoval');
    expect(vs.indexOf('AddCheckpoint')).toBeLessThan(vs.indexOf('StorePowerState'));
    const sim = names(migrator('simulated', plan({ type: 'warm' })), { id: 'vm-1' });
    expect(sim).toEqual([
      'Started',
      'CreateInitialSnapshot',
      'WaitForInitialSnapshot',
      'CreateDataVolumes',
      'CopyDisks',
      'CopyingPaused',
      'CreateSnapshot',
      'WaitForSnapshot',
      'AddCheckpoint',
      'StorePowerState',
      'PowerOffSource',
      'WaitForPowerOff',
      'CreateFinalSnapshot',
      'WaitForFinalSnapshot',
      'AddFinalCheckpoint',
      'Finalize',
      'CreateVM',
      'Completed',
    ]);
  });
});

describe('pipeline, reset and nextPhase', () => {
  it('pipeline: Pending steps, disk steps with one task per disk and total = sum in MB', async () => {
    const m = migrator('simulated');
    const p = await m.pipeline({ id: 'vm-1' });
    expect(p.map((s) => s.name)).toEqual(['Initialize', 'DiskTransfer', 'VirtualMachineCreation']);
    expect(p[1]).toMatchObject({
      progress: { completed: 0, total: 150 },
      annotations: { unit: 'MB' },
      phase: 'Pending',
    });
    expect(p[1]?.tasks).toHaveLength(2);
  });

  it('Reset clears Canceled, Failed, error and timing, and sets the first phase', async () => {
    const clock = new FakeClock(T0);
    const m = migrator('simulated', plan({ warm: true }));
    const vm = m.status({ id: 'vm-1' });
    vm.phase = 'Completed';
    vm.started = 'x';
    vm.completed = 'y';
    vm.error = { phase: 'CopyDisks', reasons: ['r'] };
    conditionsOf(vm, clock).setCondition({
      type: 'Failed',
      status: 'True',
      category: 'Advisory',
      durable: true,
    });
    conditionsOf(vm, clock).setCondition({ type: 'Other', status: 'True', category: 'Advisory' });
    m.reset(vm, await m.pipeline(vm));
    expect(vm.phase).toBe('Started');
    expect(vm.error).toBeUndefined();
    expect(vm.started).toBeUndefined();
    expect(vm.conditions?.map((c) => c.type)).toEqual(['Other']);
    expect(vm.warm).toEqual({ successes: 0, failures: 0, consecutiveFailures: 0 });
  });

  it('NextPhase completes the old step and starts the new one when the step changes', async () => {
    const clock = new FakeClock(T0);
    const m = migrator('simulated');
    const vm = m.status({ id: 'vm-1' });
    m.reset(vm, await m.pipeline(vm));
    nextPhase(m, vm, clock);
    expect(vm.phase).toBe('StorePowerState');
    expect(vm.pipeline[0]?.completed).toBeUndefined();
    vm.phase = 'CreateDataVolumes';
    nextPhase(m, vm, clock);
    expect(vm.phase).toBe('CopyDisks');
    expect(vm.pipeline[0]).toMatchObject({ phase: 'Completed' });
    expect(vm.pipeline[1]).toMatchObject({ phase: 'Running' });
    expect(vm.pipeline[1]?.started).toBeDefined();
    vm.phase = 'CreateVM';
    nextPhase(m, vm, clock);
    expect(vm.phase).toBe('Completed');
    expect(vm.pipeline[2]?.completed).toBeDefined();
  });

  it('NextPhase with an unknown step records an error', () => {
    const m = migrator('simulated');
    const vm = m.status({ id: 'vm-1' });
    vm.phase = 'Bogus';
    nextPhase(m, vm, new FakeClock(T0));
    expect(vm.error?.reasons).toEqual(["Step 'Unknown' not found"]);
  });
});
