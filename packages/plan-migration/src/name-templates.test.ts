import { describe, expect, it } from 'vitest';
import type { InventoryVM } from './adapter.js';
import type { NetworkPair } from './api/mapping.js';
import type { Plan } from './api/plan.js';
import {
  mappedNICs,
  nameTemplateOf,
  networkNameTemplateData,
  pvcNameTemplateData,
  volumeNameTemplateData,
} from './name-template/data.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidNetworkNameTemplate,
  isValidPVCNameTemplate,
  isValidTargetName,
  isValidTemplate,
  isValidVolumeNameTemplate,
  NameTemplateError,
  renderInterfaceName,
  renderPVCName,
} from './name-templates.js';

const plan = {
  metadata: { name: 'migrate-web-tier-2026', namespace: 'ns' },
  spec: {
    targetNamespace: 't',
    vms: [{ id: 'vm-42' }, { id: 'vm-43', pvcNameTemplate: 'own-{{.DiskIndex}}' }],
  },
} as unknown as Plan;

const inventoryVM: InventoryVM = {
  id: 'vm-42',
  name: 'Web_Server 01',
  powerState: 'Off',
  disks: [
    { id: 'd0', capacityMiB: 1, datastore: 'ds', fileName: 'web.vmdk' },
    { id: 'd1', capacityMiB: 1, datastore: 'ds', fileName: 'web_1.vmdk', shared: true },
  ],
  networks: ['id-a', 'id-b', 'id-c'],
  nics: [
    { name: 'nic0', mac: '00:00:00:00:00:01', network: 'VM Network' },
    { name: 'nic1', mac: '', network: 'Lab' },
    { name: 'nic2', mac: '', network: 'Unused' },
  ],
};

const pairs: NetworkPair[] = [
  { source: { name: 'VM Network' }, destination: { type: 'pod' } },
  {
    source: { id: 'id-b' },
    destination: { type: 'multus', namespace: 'net-ns', name: 'lab-bridge' },
  },
  { source: { name: 'Unused' }, destination: { type: 'ignored' } },
];

/** The data the DataVolume call site passes for disk `diskIndex` of the VM listed by id. */
const pvcData = (diskIndex: number, sourceType = 'vsphere', name?: string) =>
  pvcNameTemplateData({
    plan,
    vm: { id: 'vm-42' },
    inventoryVM: name === undefined ? inventoryVM : { ...inventoryVM, name },
    diskIndex,
    sourceType,
  });
const pvc = (template: string, diskIndex = 0, sourceType = 'vsphere', name?: string) =>
  renderPVCName(template, pvcData(diskIndex, sourceType, name));
const refusal = (render: () => unknown) => {
  try {
    render();
  } catch (e) {
    return NameTemplateError.isInstance(e) ? `${e.reason}: ${e.message}` : `other: ${e}`;
  }
  return 'rendered';
};

/** The interfaces the VirtualMachine call site names, with the data it passes. */
const interfaceNames = (template: string) =>
  mappedNICs(pairs, inventoryVM).map(({ destination }, i) =>
    renderInterfaceName(template, networkNameTemplateData(destination, i)),
  );

describe('name templates: the documented examples, with the data each call site passes', () => {
  it('PVC name templates (the Plan CRD, plan-fields.md, vm-fields.md, template-support-matrix.md)', () => {
    expect(pvc('{{.TargetVmName}}-disk-{{.DiskIndex}}', 1)).toBe('web-server-01-disk-1');
    const rootOrData = '{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data{{end}}-{{.DiskIndex}}';
    expect([pvc(rootOrData, 0), pvc(rootOrData, 1)]).toEqual(['root-0', 'data-1']);
    expect([pvc(rootOrData, 0, 'ova'), pvc(rootOrData, 1, 'ova')]).toEqual(['root-0', 'data-1']);
    expect(pvc('{{.PlanName}}-{{.VmId}}')).toBe('migrate-web-tier-2026-vm-42');
    expect(pvc('{{trunc 15 .PlanName}}-{{trunc 15 .TargetVmName}}-disk-{{.DiskIndex}}')).toBe(
      'migrate-web-tie-web-server-01-disk-0',
    );
    expect(pvc('{{trunc 10 .PlanName}}-{{trunc 20 .TargetVmName}}-{{.DiskIndex}}', 1)).toBe(
      'migrate-we-web-server-01-1',
    );
    const conditional =
      '{{trunc 15 .TargetVmName}}-{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data-{{.DiskIndex}}{{end}}';
    expect([pvc(conditional, 0), pvc(conditional, 1)]).toEqual([
      'web-server-01-root',
      'web-server-01-data-1',
    ]);
    const shared = '{{if .Shared}}shared-{{end}}{{trunc 30 .VmName | lower}}-{{.DiskIndex}}';
    expect(pvc(shared, 1, 'vsphere', 'WebServer01')).toBe('shared-webserver01-1');
    // `.Shared` is vSphere's: false for other sources, as in Forklift.
    expect(pvc(shared, 1, 'ova', 'WebServer01')).toBe('webserver01-1');
    expect(pvc('database-{{.DiskIndex}}')).toBe('database-0');
    expect(pvc('{{trunc 4 .PlanName}}-{{trunc 4 .TargetVmName}}-disk-{{.DiskIndex}}')).toBe(
      'migr-web--disk-0',
    );
  });

  it('PVC examples for other sources render to names Forklift refuses here: their fields are empty', () => {
    // `.SourcePVCName` is OpenShift's and `.DiskId` Hyper-V's and oVirt's: empty here.
    expect(refusal(() => pvc('{{.TargetVmName}}-{{.SourcePVCName}}'))).toBe(
      'NameNotValid: Template output is invalid k8s label [web-server-01-]',
    );
    expect(refusal(() => pvc('{{.VmName}}-{{.DiskId}}'))).toBe(
      'NameNotValid: Template output is invalid k8s label [Web_Server 01-]',
    );
  });

  it('volume name templates, with the PVC each volume mounts', () => {
    const mounted = pvc('{{.TargetVmName}}-disk-{{.DiskIndex}}', 1);
    const name = (template: string) =>
      renderInterfaceName(template, volumeNameTemplateData(mounted, 1));
    expect(name('disk-{{.VolumeIndex}}')).toBe('disk-1');
    expect(name('pvc-{{.PVCName}}')).toBe('pvc-web-server-01-disk-1');
    expect(name('vol-{{.VolumeIndex}}')).toBe('vol-1');
    expect(name('db-vol-{{.VolumeIndex}}')).toBe('db-vol-1');
  });

  it('network name templates, one per mapped NIC (ignored and unmapped NICs get none)', () => {
    expect(interfaceNames('net-{{.NetworkIndex}}')).toEqual(['net-0', 'net-1']);
    expect(interfaceNames('db-net-{{.NetworkIndex}}')).toEqual(['db-net-0', 'db-net-1']);
    expect(
      interfaceNames('{{if eq .NetworkType "Pod"}}pod{{else}}multus-{{.NetworkIndex}}{{end}}'),
    ).toEqual(['pod', 'multus-1']);
    expect(
      interfaceNames(
        '{{if eq .NetworkType "Pod"}}pod-net{{else}}{{.NetworkName}}-{{.NetworkIndex}}{{end}}',
      ),
    ).toEqual(['pod-net', 'lab-bridge-1']);
    expect(
      interfaceNames(
        '{{if eq .NetworkType "Multus"}}{{trunc 10 .NetworkNamespace}}-{{trunc 15 .NetworkName}}{{else}}pod{{end}}',
      ),
    ).toEqual(['pod', 'net-ns-lab-bridge']);
  });

  it("a NIC's own network maps it before the id its VM lists for it", () => {
    // nic0 is on `VM Network` (mapped to pod by name); its VM lists `id-b` for it, mapped to Multus.
    const vm = { ...inventoryVM, nics: inventoryVM.nics?.slice(0, 1) ?? [], networks: ['id-b'] };
    const idPairFirst = [pairs[1], pairs[0]] as NetworkPair[];
    expect(mappedNICs(idPairFirst, vm).map(({ destination }) => destination.type)).toEqual(['pod']);
    // A NIC whose own network maps nothing is mapped by the id.
    const renamed = { ...vm, nics: [{ name: 'nic0', mac: '', network: 'elsewhere' }] };
    expect(mappedNICs(idPairFirst, renamed).map(({ destination }) => destination.type)).toEqual([
      'multus',
    ]);
  });

  it("a field of another call site's data is refused, naming the data type", () => {
    expect(refusal(() => pvc('disk-{{.VolumeIndex}}'))).toBe(
      "TemplateNotValid: template: can't evaluate field VolumeIndex in type PVCNameTemplateData",
    );
    expect(
      refusal(() => renderInterfaceName('{{.DiskIndex}}', volumeNameTemplateData('p', 0))),
    ).toBe(
      "TemplateNotValid: template: can't evaluate field DiskIndex in type VolumeNameTemplateData",
    );
    expect(
      refusal(() =>
        renderInterfaceName('{{.PVCName}}', networkNameTemplateData({ type: 'pod' }, 0)),
      ),
    ).toBe(
      "TemplateNotValid: template: can't evaluate field PVCName in type NetworkNameTemplateData",
    );
  });

  it('the template that applies: the VM’s own, else the plan’s, with the field it came from', () => {
    const withPlan = { ...plan, spec: { ...plan.spec, pvcNameTemplate: 'p-{{.DiskIndex}}' } };
    expect(nameTemplateOf(withPlan, { id: 'vm-43' }, 'pvcNameTemplate')).toEqual({
      template: 'own-{{.DiskIndex}}',
      path: 'spec.vms[1].pvcNameTemplate',
    });
    expect(nameTemplateOf(withPlan, { id: 'vm-42' }, 'pvcNameTemplate')).toEqual({
      template: 'p-{{.DiskIndex}}',
      path: 'spec.pvcNameTemplate',
    });
    expect(nameTemplateOf(plan, { id: 'vm-42' }, 'volumeNameTemplate')).toBeUndefined();
  });
});

describe('name rules on the rendered name', () => {
  it('DNS-1123 labels and subdomains', () => {
    expect(isDNS1123Label('web-1')).toBe(true);
    expect(isDNS1123Label('Web')).toBe(false);
    expect(isDNS1123Label('a'.repeat(63))).toBe(true);
    expect(isDNS1123Label('a'.repeat(64))).toBe(false);
    expect(isDNS1123Subdomain('a.b-c.d')).toBe(true);
    expect(isDNS1123Subdomain('-a')).toBe(false);
    expect(isDNS1123Subdomain('a'.repeat(254))).toBe(false);
  });

  it('isValidTargetName: empty is fine, a DNS-1123 subdomain is, anything else throws', () => {
    expect(() => isValidTargetName('')).not.toThrow();
    expect(() => isValidTargetName('my-vm.prod')).not.toThrow();
    expect(() => isValidTargetName('My_VM')).toThrow(NameTemplateError);
  });

  it('a PVC name is trimmed, then must be a non-empty DNS-1123 label of at most 63 characters', () => {
    expect(pvc('  {{.VmId}}\n')).toBe('vm-42');
    expect(refusal(() => pvc(' {{.WinDriveLetter}} '))).toBe(
      'TemplateOutputEmpty: Template output is empty:  {{.WinDriveLetter}} ',
    );
    expect(refusal(() => pvc('{{repeat 64 "a"}}'))).toBe(
      `NameNotValid: Template output is invalid k8s label [${'a'.repeat(64)}]`,
    );
    expect(pvc('{{repeat 63 "a"}}')).toBe('a'.repeat(63));
    expect(refusal(() => pvc('{{.PlanName}}.{{.DiskIndex}}'))).toMatch(/invalid k8s label/);
  });

  it('a volume or network name is not trimmed, and must be a DNS-1123 label', () => {
    const data = volumeNameTemplateData('p', 0);
    expect(refusal(() => renderInterfaceName(' vol-{{.VolumeIndex}}', data))).toBe(
      'NameNotValid: Template output is not a valid k8s label [ vol-0]',
    );
    expect(refusal(() => renderInterfaceName('{{.PVCName | upper}}', data))).toBe(
      'NameNotValid: Template output is not a valid k8s label [P]',
    );
  });

  it("the sample checks: Forklift's sample data, empty templates allowed", () => {
    expect(() => isValidVolumeNameTemplate('')).not.toThrow();
    expect(() => isValidVolumeNameTemplate('disk-{{.VolumeIndex}}')).not.toThrow();
    expect(() => isValidVolumeNameTemplate('{{.PVCName}}.x')).toThrow(/not a valid k8s label/);
    expect(() => isValidNetworkNameTemplate('{{.NetworkType}}')).toThrow(
      /not a valid k8s label \[Multus\]/,
    );
    expect(() => isValidPVCNameTemplate('{{.VmName}}-disk-{{.DiskIndex}}')).not.toThrow();
    expect(() => isValidPVCNameTemplate('{{.Bogus}}')).toThrow(/can't evaluate field Bogus/);
  });

  it('isValidTemplate returns the output; empty output is TemplateOutputEmpty', () => {
    const data = { typeName: 'T', fields: { Empty: '', N: 3 } };
    expect(isValidTemplate('n-{{.N}}', data)).toBe('n-3');
    expect(refusal(() => isValidTemplate('{{.Empty}}', data))).toMatch(/^TemplateOutputEmpty/);
  });
});
