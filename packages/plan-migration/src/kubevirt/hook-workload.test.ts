import { describe, expect, it } from 'vitest';
import type { PlanSpec } from '../api/plan.js';
import { OvaInventory } from '../ova/inventory.js';
import { makeCatalogDir, writeCatalogFiles } from '../ova/testing/catalog-folder.js';
import { VMWARE_OVF } from '../ova/testing/ovf-fixtures.js';
import { forkliftPlanSpec, forkliftWorkload } from './hook-workload.js';

describe('forkliftWorkload', () => {
  it("gives an OVA VM as Forklift's hook runner writes its inventory workload", async () => {
    const catalogPath = await makeCatalogDir();
    await writeCatalogFiles(
      catalogPath,
      {
        'web-01.ova': [
          { name: 'web-01.ovf', content: VMWARE_OVF },
          { name: 'web-01-disk1.vmdk', content: new Uint8Array(512) },
          { name: 'web-01-disk2.vmdk', content: new Uint8Array(512) },
        ],
      },
      Date.now() - 60_000,
    );
    const [vm] = await new OvaInventory({ catalogPath }).listVMs();
    if (vm === undefined) throw new Error('no VM');
    const workload = forkliftWorkload(vm, `providers/ova/p-uid/workloads/${vm.id}`) as {
      selflink: string;
      vm: Record<string, unknown> & {
        vm1: { vm0: Record<string, unknown> };
        nics: Array<Record<string, unknown>>;
        disks: Array<{ base: { id: string }; filepath: string; capacity: number }>;
        networks: Array<{ base: { id: string; name: string } }>;
      };
    };
    expect(workload.selflink).toBe(`providers/ova/p-uid/workloads/${vm.id}`);
    // the VM's resource fields, nested as yaml.v2 nests embedded structs
    expect(workload.vm.vm1.vm0).toEqual({
      id: vm.id,
      variant: '',
      path: vm.ovaPath,
      revision: 0,
      name: 'web-01',
      selflink: '',
    });
    expect(workload.vm).toMatchObject({
      ovapath: vm.ovaPath,
      cpucount: vm.cpuCount,
      memorymb: vm.memoryMiB,
      ipaddress: '',
      firmware: '',
    });
    expect(vm.cpuCount).toBeGreaterThan(0);
    expect(workload.vm.nics).toEqual(
      (vm.nics ?? []).map((n) => ({ name: n.name, mac: n.mac, network: n.network, config: [] })),
    );
    expect(workload.vm.nics.length).toBeGreaterThan(0);
    expect(workload.vm.disks.map((d) => d.base.id)).toEqual(vm.disks.map((d) => d.id));
    expect(workload.vm.disks.map((d) => d.filepath)).toEqual([
      'web-01-disk1.vmdk',
      'web-01-disk2.vmdk',
    ]);
    expect(workload.vm.disks[0]?.capacity).toBe((vm.disks[0]?.capacityMiB ?? 0) * 1024 * 1024);
    expect(workload.vm.networks.map((n) => n.base.id)).toEqual(vm.networks);
    // every key as yaml.v2 writes an untagged Go field: lower case
    const keys = (v: unknown): string[] =>
      typeof v !== 'object' || v === null
        ? []
        : Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)]);
    for (const key of keys(workload)) expect(key).toBe(key.toLowerCase());
  });
});

describe('forkliftPlanSpec', () => {
  it("gives the Plan's spec as Forklift's plan.yml: lower-case keys, VM refs nested, full references", () => {
    const spec = {
      provider: { source: { name: 'ova' }, destination: { name: 'host', namespace: 'ns' } },
      map: { network: { name: 'net' }, storage: { name: 'sto' } },
      targetNamespace: 'target',
      vms: [
        { name: 'web-01', hooks: [{ step: 'PreHook', hook: { name: 'h', namespace: 'ns' } }] },
        { id: 'vm-2', targetName: 'renamed' },
      ],
      pvcNameTemplate: '{{.VmName}}-{{.DiskIndex}}',
    } as unknown as PlanSpec;
    const yml = forkliftPlanSpec(spec);
    expect(yml).toMatchObject({
      description: '',
      targetnamespace: 'target',
      warm: false,
      archived: false,
      transfernetwork: null,
      pvcnametemplate: '{{.VmName}}-{{.DiskIndex}}',
      provider: {
        source: { name: 'ova', namespace: '', kind: '', uid: '', apiversion: '' },
        destination: { name: 'host', namespace: 'ns' },
      },
      map: { network: { name: 'net' }, storage: { name: 'sto' } },
    });
    expect(yml.vms).toEqual([
      {
        ref: { id: '', name: 'web-01', namespace: '', type: '' },
        hooks: [
          {
            step: 'PreHook',
            hook: {
              kind: '',
              namespace: 'ns',
              name: 'h',
              uid: '',
              apiversion: '',
              resourceversion: '',
              fieldpath: '',
            },
          },
        ],
      },
      { ref: { id: 'vm-2', name: '', namespace: '', type: '' }, hooks: [], targetname: 'renamed' },
    ]);
  });
});
