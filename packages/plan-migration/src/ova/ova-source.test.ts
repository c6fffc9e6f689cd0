import { join } from 'node:path';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Plan } from '../api/plan.js';
import { OvaError } from './ova-error.js';
import { OvaSource } from './ova-source.js';
import { makeCatalogDir, writeCatalogFiles } from './testing/catalog-folder.js';
import { COLLECTION_OVF, VIRTUALBOX_OVF, VMWARE_OVF } from './testing/ovf-fixtures.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

async function source() {
  const dir = await makeCatalogDir();
  await writeCatalogFiles(
    dir,
    {
      'web/web-01.ova': [{ name: 'web-01.ovf', content: VMWARE_OVF }],
      'ubuntu/ubuntu.ovf': VIRTUALBOX_OVF,
      'stack.ovf': COLLECTION_OVF,
    },
    NOW - 60_000,
  );
  return { dir, source: new OvaSource({ catalogPath: dir, clock: new FakeClock(NOW) }) };
}

const plan = (type?: 'cold' | 'warm' | 'live'): Plan =>
  ({ metadata: { name: 'p' }, spec: type === undefined ? {} : { type } }) as unknown as Plan;
const networkMap = (sources: Array<{ id?: string; name?: string }>): NetworkMap =>
  ({
    metadata: {},
    spec: {
      provider: { source: { name: 'ova' }, destination: { name: 'host' } },
      map: sources.map((source) => ({ source, destination: { type: 'pod' } })),
    },
  }) as NetworkMap;
const storageMap = (sources: Array<{ id?: string; name?: string }>): StorageMap =>
  ({
    metadata: {},
    spec: {
      provider: { source: { name: 'ova' }, destination: { name: 'host' } },
      map: sources.map((source) => ({ source, destination: { storageClass: 'standard' } })),
    },
  }) as StorageMap;

describe('OvaSource', () => {
  it('client: VMs are Off, power operations succeed, snapshots and transfers are not supported', async () => {
    const { source: s } = await source();
    const ref = { name: 'web-01' };
    expect(await s.client.powerState(ref)).toBe('Off');
    await expect(s.client.powerOff(ref)).resolves.toBeUndefined();
    await expect(s.client.powerOn(ref)).resolves.toBeUndefined();
    expect(await s.client.poweredOff(ref)).toBe(true);
    await expect(s.client.cancelTransfer(ref)).resolves.toBeUndefined();
    for (const call of [
      () => s.client.createSnapshot(ref),
      () => s.client.checkSnapshotReady(ref, 'x'),
      () => s.client.removeSnapshot(ref, 'x'),
      () => s.client.startTransfer(ref, 0),
      () => s.client.transferStatus(ref),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(OvaError.isInstance(error) && error.reason).toBe('NotSupported');
      expect((error as Error).message).toMatch(/is not supported for OVA/);
    }
  });

  it("builder: one task per disk named as upstream's (<.ova path>::<file>), total in MiB", async () => {
    const { source: s } = await source();
    const tasks = await s.builder.tasks({ name: 'web-01' });
    expect(tasks.map((t) => [t.name, t.progress?.total, t.annotations])).toEqual([
      ['/ova/web/web-01.ova::web-01-disk1.vmdk', 16384, { unit: 'MB' }],
      ['/ova/web/web-01.ova::web-01-disk2.vmdk', 2048, { unit: 'MB' }],
    ]);
    const ovfTasks = await s.builder.tasks({ name: 'ubuntu' });
    expect(ovfTasks.map((t) => t.name)).toEqual(['/ova/ubuntu/::ubuntu-disk001.vmdk']);
  });

  it('builder: the conversion pod environment names the VM, the appliance on the share and the ova mode', async () => {
    const { source: s } = await source();
    expect(await s.builder.podEnvironment({ name: 'web-01' })).toEqual([
      { name: 'V2V_vmName', value: 'web-01' },
      { name: 'V2V_diskPath', value: '/ova/web/web-01.ova' },
      { name: 'V2V_source', value: 'ova' },
    ]);
    expect(await s.builder.podEnvironment({ name: 'ubuntu' })).toContainEqual({
      name: 'V2V_diskPath',
      value: '/ova/ubuntu',
    });
    const error = await s.builder.podEnvironment({ name: 'missing' }).catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && error.reason).toBe('VMNotFound');
  });

  it('builder: podMountPath maps catalog paths to where the pod mounts the share', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(dir, { 'a/ubuntu.ovf': VIRTUALBOX_OVF }, NOW - 60_000);
    const s = new OvaSource({
      catalogPath: dir,
      clock: new FakeClock(NOW),
      podMountPath: '/mnt/share',
    });
    expect(await s.builder.podEnvironment({ name: 'ubuntu' })).toContainEqual({
      name: 'V2V_diskPath',
      value: '/mnt/share/a',
    });
  });

  it('validator: cold only, never warm', async () => {
    const { source: s } = await source();
    expect(s.validator(plan(), {}).warmMigration()).toBe(false);
    expect(s.validator(plan(), {}).migrationType()).toBe(true);
    expect(s.validator(plan('cold'), {}).migrationType()).toBe(true);
    expect(s.validator(plan('warm'), {}).migrationType()).toBe(false);
    expect(s.validator(plan('live'), {}).migrationType()).toBe(false);
  });

  it("validator: the VM's networks and disks must be map sources, by id or by name", async () => {
    const { source: s } = await source();
    const vm = await s.inventory.findVM({ name: 'web-01' });
    const [net] = vm?.networks ?? [];
    const disks = vm?.disks ?? [];
    const ref = { name: 'web-01' };
    expect(await s.validator(plan(), {}).networksMapped(ref)).toBe(false);
    expect(
      await s.validator(plan(), { network: networkMap([{ id: net }]) }).networksMapped(ref),
    ).toBe(true);
    expect(
      await s
        .validator(plan(), { network: networkMap([{ name: 'VM Network' }]) })
        .networksMapped(ref),
    ).toBe(true);
    expect(
      await s.validator(plan(), { network: networkMap([{ id: 'other' }]) }).networksMapped(ref),
    ).toBe(false);
    const all = storageMap(disks.map((d) => ({ id: d.id })));
    expect(await s.validator(plan(), { storage: all }).storageMapped(ref)).toBe(true);
    const one = storageMap([{ id: disks[0]?.id }]);
    expect(await s.validator(plan(), { storage: one }).storageMapped(ref)).toBe(false);
    expect(await s.validator(plan(), { storage: all }).storageMapped({ name: 'missing' })).toBe(
      false,
    );
  });

  it('validator: a VM of a collection needs only its own networks and disks mapped', async () => {
    const { source: s } = await source();
    const app = await s.inventory.findVM({ name: 'app' });
    const maps = {
      network: networkMap([{ name: 'front' }]),
      storage: storageMap((app?.disks ?? []).map((d) => ({ id: d.id }))),
    };
    expect(await s.validator(plan(), maps).networksMapped({ name: 'app' })).toBe(true);
    expect(await s.validator(plan(), maps).storageMapped({ name: 'app' })).toBe(true);
    expect(await s.validator(plan(), maps).networksMapped({ name: 'db' })).toBe(false);
  });

  it('shares an inventory given to it', async () => {
    const { dir, source: s } = await source();
    const shared = new OvaSource({ inventory: s.inventory });
    expect(shared.inventory).toBe(s.inventory);
    expect(shared.inventory.catalogPath).toBe(dir);
    expect((await shared.inventory.findVM({ name: 'db' }))?.ovaPath).toBe(join(dir, 'stack.ovf'));
  });
});
