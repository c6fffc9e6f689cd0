import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { applianceInventory, OvaInventory } from './inventory.js';
import { OvaError } from './ova-error.js';
import { parseOvf } from './ovf-parser.js';
import { makeCatalogDir, writeCatalogFiles } from './testing/catalog-folder.js';
import {
  COLLECTION_OVF,
  DEPLOYMENT_OPTIONS_OVF,
  FEWER_FILES_OVF,
  MALFORMED_OVF,
  OVF_09,
  OVIRT_OVF,
  TEXT_PLACEHOLDER_OVF,
  UNRESOLVED_PROPERTY_OVF,
  VIRTUALBOX_OVF,
  VMWARE_OVF,
  XEN_OVF,
} from './testing/ovf-fixtures.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const OLD = NOW - 60_000;

async function inventoryOf(files: Parameters<typeof writeCatalogFiles>[1], mtimeMs = OLD) {
  const dir = await makeCatalogDir();
  await writeCatalogFiles(dir, files, mtimeMs);
  const clock = new FakeClock(NOW);
  return { dir, clock, inventory: new OvaInventory({ catalogPath: dir, clock, rescanAfterMs: 0 }) };
}

describe('OvaInventory', () => {
  // The ids below are what Forklift's provider server (cmd/provider-common/inventory at
  // d42511bb2) returned for these same files at these paths: VM ids are the VirtualSystem id
  // when it is a UUID, else hashed; disk and network ids are always hashed.
  it.each([
    [
      '/ova/web-01.ova',
      VMWARE_OVF,
      'f2c99311de61e74dfa828144deefb2e77a0a',
      ['2075dd901282f98a82d0ade216659bd47c01', 'cee42622873fd30f9fc3232ccd245f348450'],
      ['ae1badc8c693926f492a01e2f357d6af321b'],
    ],
    [
      '/ova/sub/ubuntu.ovf',
      VIRTUALBOX_OVF,
      '6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3d',
      ['4b66a39ee3e03b7ea2dd453db6873708b9a1'],
      ['f099238943ee7e5067364728e8bb841575c8'],
    ],
    [
      '/ova/xen.ovf',
      XEN_OVF,
      '385c8eac339a58414f3bbc3ae0185bbb2f81',
      ['8d28a64b25d359f5672523e253e5c6afb76a'],
      ['223b1ca960c2950f885525878e60c8e27222'],
    ],
    [
      '/ova/ovirt.ova',
      OVIRT_OVF,
      '1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
      ['6fa3fc1a72a1bce0e0575e47b98f3f84bfd6'],
      ['dfbb38073e8f748395137d241e789232e6c6'],
    ],
  ])(
    'gives the VM, disks and networks of %s the ids upstream gives them',
    (path, xml, vmId, diskIds, networkIds) => {
      const { vms, disks, networks } = applianceInventory(path, parseOvf(xml, path));
      expect(vms.map((vm) => vm.id)).toEqual([vmId]);
      expect(disks.map((d) => d.id)).toEqual(diskIds);
      expect(vms[0]?.disks.map((d) => d.id)).toEqual(diskIds);
      expect(networks.map((n) => n.id)).toEqual(networkIds);
      expect(vms[0]?.networks).toEqual(networkIds);
    },
  );

  it("lists appliances in upstream's order: .ova files first, then .ovf, each in path order", async () => {
    const { inventory } = await inventoryOf({
      'web-01.ova': [{ name: 'web-01.ovf', content: VMWARE_OVF }],
      'sub/ubuntu.ovf': VIRTUALBOX_OVF,
      'xen.ovf': XEN_OVF,
      'ovirt.ova': [{ name: 'vm.ovf', content: OVIRT_OVF }],
    });
    expect((await inventory.listVMs()).map((vm) => vm.name)).toEqual([
      'rhv-vm',
      'web-01',
      'ubuntu',
      'xen-vm',
    ]);
    expect((await inventory.listNetworks()).map((n) => n.name)).toEqual([
      'ovirtmgmt',
      'VM Network',
      'NAT',
      'Pool-wide network associated with eth0',
    ]);
  });

  it('reads CPU, memory (AllocationUnits applied), NICs, OS type, exporter and path', async () => {
    const { dir, inventory } = await inventoryOf({
      'web-01.ova': [{ name: 'web-01.ovf', content: VMWARE_OVF }],
      'ubuntu.ovf': VIRTUALBOX_OVF,
    });
    const web = await inventory.findVM({ name: 'web-01' });
    expect(web).toMatchObject({
      powerState: 'Off',
      cpuCount: 4,
      memoryMiB: 8192,
      osType: 'rhel8_64Guest',
      guestOS: 'rhel8_64Guest',
      exportSource: 'VMware',
      ovaPath: join(dir, 'web-01.ova'),
      nics: [{ name: 'Network adapter 1', mac: '00:50:56:aa:bb:01', network: 'VM Network' }],
    });
    expect(web?.disks.map((d) => [d.fileName, d.capacityMiB, d.datastore === d.id])).toEqual([
      ['web-01-disk1.vmdk', 16 * 1024, true],
      ['web-01-disk2.vmdk', 2048, true],
    ]);
    const ubuntu = await inventory.findVM({ id: '6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3d' });
    expect(ubuntu).toMatchObject({
      memoryMiB: 2048,
      cpuCount: 2,
      exportSource: 'VirtualBox',
      osType: '',
      guestOS: 'Ubuntu_64', // VirtualBox gives no ovf:osType, only the Description
    });
    expect(ubuntu?.disks[0]?.capacityMiB).toBe(10 * 1024);
  });

  it('reads a VirtualSystemCollection, giving each disk only to the VM that references it', async () => {
    const { inventory } = await inventoryOf({ 'stack.ovf': COLLECTION_OVF });
    const vms = await inventory.listVMs();
    expect(
      vms.map((vm) => [vm.name, vm.memoryMiB, vm.disks.map((d) => [d.fileName, d.capacityMiB])]),
    ).toEqual([
      ['app', 2048, [['app.vmdk', 1024]]],
      ['db', 1024, [['db.vmdk', 512]]],
    ]);
    const disks = await inventory.listDisks();
    expect(disks.map((d) => d.vms)).toEqual([[vms[0]?.id], [vms[1]?.id]]);
    expect(vms[0]?.networks).toHaveLength(1);
    expect(vms[0]?.networks).not.toEqual(vms[1]?.networks);
  });

  it('lists a VM whose OVF has fewer files than disks (upstream crashes)', async () => {
    const { inventory } = await inventoryOf({ 'sparse.ovf': FEWER_FILES_OVF });
    const [vm] = await inventory.listVMs();
    expect(vm?.memoryMiB).toBeUndefined();
    expect(vm?.cpuCount).toBeUndefined();
    expect(vm?.disks.map((d) => [d.fileName, d.capacityMiB])).toEqual([
      [undefined, 1024],
      ['only.vmdk', 3072],
    ]);
  });

  it('reports malformed and templated files as problems and lists the others', async () => {
    const { inventory } = await inventoryOf({
      'bad.ovf': MALFORMED_OVF,
      'templated.ovf': UNRESOLVED_PROPERTY_OVF,
      'no-descriptor.ova': [{ name: 'disk.vmdk', content: 'x' }],
      'not-a-tar.ova': 'hello',
      'good.ovf': VIRTUALBOX_OVF,
    });
    const catalog = await inventory.catalog();
    expect(catalog.vms.map((vm) => vm.name)).toEqual(['ubuntu']);
    expect(catalog.problems.map((p) => [p.file.split('/').pop(), p.reason])).toEqual([
      ['no-descriptor.ova', 'OvfNotFound'],
      ['not-a-tar.ova', 'MalformedArchive'],
      ['bad.ovf', 'MalformedOvf'],
      ['templated.ovf', 'UnresolvedProperty'],
    ]);
  });

  it('lists a VM whose description holds a placeholder without value; reports an OVF 0.9 file', async () => {
    const { inventory } = await inventoryOf({
      'texty.ovf': TEXT_PLACEHOLDER_OVF,
      'old.ovf': OVF_09,
    });
    const catalog = await inventory.catalog();
    expect(catalog.vms.map((vm) => [vm.name, vm.cpuCount])).toEqual([['texty', 2]]);
    expect(catalog.problems.map((p) => [p.file.split('/').pop(), p.reason])).toEqual([
      ['old.ovf', 'UnsupportedOvfVersion'],
    ]);
  });

  it("takes the default DeploymentOption's CPU and memory, and a delta disk with its base", () => {
    const path = '/ova/sized/sized.ovf';
    const envelope = parseOvf(DEPLOYMENT_OPTIONS_OVF, path);
    const { vms } = applianceInventory(path, envelope);
    expect(vms[0]).toMatchObject({ cpuCount: 8, memoryMiB: 16384 });
    expect(vms[0]?.disks.map((d) => d.fileName)).toEqual(['base.vmdk', 'delta.vmdk']);
    const small = DEPLOYMENT_OPTIONS_OVF.replace(' ovf:default="true"', '');
    expect(applianceInventory(path, parseOvf(small, path)).vms[0]).toMatchObject({
      cpuCount: 2,
      memoryMiB: 2048,
    });
    // The id stays the one upstream computes (from every item), whichever configuration is the default.
    expect(applianceInventory(path, parseOvf(small, path)).vms[0]?.id).toBe(vms[0]?.id);
  });

  it('reports a file it cannot read as Unreadable', async () => {
    const { dir, inventory } = await inventoryOf({ 'good.ovf': VIRTUALBOX_OVF });
    await mkdir(join(dir, 'folder.ovf'));
    await utimes(join(dir, 'folder.ovf'), OLD / 1000, OLD / 1000);
    await symlink(join(dir, 'folder.ovf'), join(dir, 'link.ovf'));
    const catalog = await inventory.catalog();
    expect(catalog.vms.map((vm) => vm.name)).toEqual(['ubuntu']);
    expect(catalog.problems.map((p) => [p.file.split('/').pop(), p.reason])).toEqual([
      ['link.ovf', 'Unreadable'],
    ]);
    expect(catalog.problems[0]?.message).toMatch(/link\.ovf: cannot be read: .*EISDIR/);
  });

  it('skips files younger than 30 s until they are old enough', async () => {
    const { clock, inventory } = await inventoryOf({ 'web.ovf': VMWARE_OVF }, NOW - 10_000);
    expect(await inventory.listVMs()).toEqual([]);
    clock.step(21_000);
    expect((await inventory.listVMs()).map((vm) => vm.name)).toEqual(['web-01']);
  });

  it('rescans when a file changes, re-parsing only what changed', async () => {
    const { dir, inventory } = await inventoryOf({ 'a.ovf': VMWARE_OVF });
    const first = await inventory.catalog();
    const again = await inventory.catalog();
    expect(again.generation).toBe(first.generation);
    expect(again.vms[0]).toBe(first.vms[0]); // not re-parsed
    await writeFile(join(dir, 'a.ovf'), VMWARE_OVF.replaceAll('web-01', 'web-02'));
    await utimes(join(dir, 'a.ovf'), OLD / 1000, (OLD + 1000) / 1000);
    const changed = await inventory.catalog();
    expect(changed.generation).toBe(first.generation + 1);
    expect(changed.vms.map((vm) => vm.name)).toEqual(['web-02']);
    await rm(join(dir, 'a.ovf'));
    expect((await inventory.catalog()).vms).toEqual([]);
  });

  it('reuses a scan younger than rescanAfterMs', async () => {
    const dir = await makeCatalogDir();
    const clock = new FakeClock(NOW);
    const inventory = new OvaInventory({ catalogPath: dir, clock, rescanAfterMs: 5_000 });
    expect(await inventory.listVMs()).toEqual([]);
    await writeCatalogFiles(dir, { 'a.ovf': VMWARE_OVF }, OLD);
    expect(await inventory.listVMs()).toEqual([]);
    clock.step(5_000);
    expect(await inventory.listVMs()).toHaveLength(1);
  });

  it('rejects reads with CatalogNotFound when the folder is missing', async () => {
    const inventory = new OvaInventory({ catalogPath: '/nonexistent/ova', rescanAfterMs: 0 });
    const error = await inventory.listVMs().catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && error.reason).toBe('CatalogNotFound');
  });

  it('rejects invalid options naming the field', () => {
    expect(() => new OvaInventory({ minFileAgeMs: -1 })).toThrow(/invalid minFileAgeMs/);
    expect(() => new OvaInventory({ rescanAfterMs: Number.NaN })).toThrow(/invalid rescanAfterMs/);
    expect(() => new OvaInventory({ catalogPath: '' })).toThrow(/invalid catalogPath/);
  });
});
