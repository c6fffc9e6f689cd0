import { InvalidArgumentError } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { SimulatedSource } from './simulated-source.js';

const vm = {
  id: 'vm-1',
  name: 'one',
  powerState: 'On' as const,
  networks: ['n1'],
  disks: [
    { id: 'd0', capacityMiB: 1000, datastore: 'ds1' },
    { id: 'd1', capacityMiB: 200, datastore: 'ds2' },
  ],
};

describe('SimulatedSource', () => {
  it('rejects bad options naming the field', () => {
    const clock = new FakeClock(0);
    expect(() => new SimulatedSource({ clock, vms: [], copyRateMiBPerSecond: 0 })).toThrow(
      /copyRateMiBPerSecond/,
    );
    expect(() => new SimulatedSource({ clock, vms: [vm, vm] })).toThrow(InvalidArgumentError);
    expect(() => new SimulatedSource({ clock, vms: [], powerOffMs: -1 })).toThrow(/powerOffMs/);
  });

  it('finds VMs by id, then by name; tasks are one per disk in MiB', async () => {
    const s = new SimulatedSource({ clock: new FakeClock(0), vms: [vm] });
    expect((await s.findVM({ id: 'vm-1' }))?.name).toBe('one');
    expect((await s.findVM({ name: 'one' }))?.id).toBe('vm-1');
    expect(await s.findVM({ id: 'nope' })).toBeUndefined();
    expect((await s.tasks({ id: 'vm-1' })).map((t) => [t.name, t.progress.total])).toEqual([
      ['d0', 1000],
      ['d1', 200],
    ]);
  });

  it('disk copy progress advances with the clock, disks in parallel', async () => {
    const clock = new FakeClock(0);
    const s = new SimulatedSource({ clock, vms: [vm], copyRateMiBPerSecond: 100 });
    expect((await s.transferStatus({ id: 'vm-1' }))[0]?.phase).toBe('Pending');
    await s.startTransfer({ id: 'vm-1' }, 0);
    clock.step(3_000);
    expect(await s.transferStatus({ id: 'vm-1' })).toEqual([
      { disk: 'd0', phase: 'ImportInProgress', completedMiB: 300, totalMiB: 1000 },
      { disk: 'd1', phase: 'Succeeded', completedMiB: 200, totalMiB: 200 },
    ]);
    await s.startTransfer({ id: 'vm-1' }, 0);
    clock.step(7_000);
    expect((await s.transferStatus({ id: 'vm-1' }))[0]?.phase).toBe('Succeeded');
    await s.startTransfer({ id: 'vm-1' }, 1);
    clock.step(500);
    expect((await s.transferStatus({ id: 'vm-1' }))[0]).toMatchObject({
      phase: 'ImportInProgress',
      totalMiB: 100,
    });
  });

  it('injected failures fail a disk once enough is copied', async () => {
    const clock = new FakeClock(0);
    const s = new SimulatedSource({ clock, vms: [vm], copyRateMiBPerSecond: 100 });
    s.failDiskCopy('vm-1', 'd0', 'boom', 500);
    await s.startTransfer({ id: 'vm-1' }, 0);
    clock.step(4_000);
    expect((await s.transferStatus({ id: 'vm-1' }))[0]?.phase).toBe('ImportInProgress');
    clock.step(1_000);
    expect((await s.transferStatus({ id: 'vm-1' }))[0]).toMatchObject({
      phase: 'Failed',
      error: 'boom',
    });
    s.clearFailures('vm-1');
    expect((await s.transferStatus({ id: 'vm-1' }))[0]?.phase).toBe('ImportInProgress');
  });

  it('power off takes powerOffMs; snapshots become ready after snapshotMs', async () => {
    const clock = new FakeClock(0);
    const s = new SimulatedSource({ clock, vms: [vm], powerOffMs: 2_000, snapshotMs: 1_000 });
    await s.powerOff({ id: 'vm-1' });
    expect(await s.poweredOff({ id: 'vm-1' })).toBe(false);
    clock.step(2_000);
    expect(await s.poweredOff({ id: 'vm-1' })).toBe(true);
    await s.powerOn({ id: 'vm-1' });
    expect(await s.powerState({ id: 'vm-1' })).toBe('On');
    const snap = await s.createSnapshot({ id: 'vm-1' });
    expect(await s.checkSnapshotReady({ id: 'vm-1' }, snap)).toBe(false);
    clock.step(1_000);
    expect(await s.checkSnapshotReady({ id: 'vm-1' }, snap)).toBe(true);
  });

  it('validator: networks and datastores must be mapped; warm and migration type', async () => {
    const s = new SimulatedSource({ clock: new FakeClock(0), vms: [vm], warm: false });
    const plan = {
      metadata: {},
      spec: { type: 'live' as const },
    } as never;
    const v = s.validator(plan, {
      network: {
        metadata: {},
        spec: {
          provider: {} as never,
          map: [{ source: { id: 'n1' }, destination: { type: 'pod' } }],
        },
      },
      storage: {
        metadata: {},
        spec: {
          provider: {} as never,
          map: [{ source: { name: 'ds1' }, destination: { storageClass: 'x' } }],
        },
      },
    });
    expect(v.warmMigration()).toBe(false);
    expect(v.migrationType()).toBe(false);
    expect(await v.networksMapped({ id: 'vm-1' })).toBe(true);
    expect(await v.storageMapped({ id: 'vm-1' })).toBe(false);
  });
});
