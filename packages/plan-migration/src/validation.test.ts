import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { Condition } from './api/condition.js';
import { conditionsOf } from './conditions.js';
import { PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function setup(options: ConstructorParameters<typeof PlanHarness>[0] | object = {}) {
  return new PlanHarness({ clock: new FakeClock(T0), vms: 2, ...options });
}
const find = (h: PlanHarness, type: string): Condition | undefined =>
  h.plan.status?.conditions?.find((c) => c.type === type);

describe('validation', () => {
  it('a valid plan is Ready (Required) and nothing else', async () => {
    const h = setup();
    await h.reconcile();
    expect(h.planConditions()).toEqual(['Ready']);
    expect(find(h, 'Ready')).toMatchObject({
      category: 'Required',
      message: 'The migration plan is ready.',
    });
  });

  it('SourceProviderNotValid NotFound / NotSet; destination TypeNotValid', async () => {
    const h = setup();
    delete h.references.source;
    await h.reconcile();
    expect(find(h, 'SourceProviderNotValid')).toMatchObject({
      reason: 'NotFound',
      category: 'Critical',
    });
    expect(find(h, 'Ready')).toBeUndefined();
    const g = setup();
    g.plan.spec.provider.source.name = '';
    const dst = g.references.destination;
    if (dst) dst.spec.type = 'vsphere';
    await g.reconcile();
    expect(find(g, 'SourceProviderNotValid')?.reason).toBe('NotSet');
    expect(find(g, 'DestinationProviderNotValid')?.reason).toBe('TypeNotValid');
  });

  it('SourceProviderNotReady stops validation', async () => {
    const h = setup();
    h.plan.spec.targetNamespace = 'Bad_NS';
    const src = h.references.source;
    if (src?.status) src.status.conditions = [];
    await h.reconcile();
    expect(h.planConditions()).toEqual(['SourceProviderNotReady']);
  });

  it('NamespaceNotValid NotValid; map refs NotFound and NotReady; VM checks wait for blockers to clear', async () => {
    const h = setup();
    h.plan.spec.targetNamespace = 'Bad_NS';
    delete h.references.networkMap;
    const sto = h.references.storageMap;
    if (sto?.status) sto.status.conditions = [];
    h.plan.spec.vms.push({ id: 'missing' });
    await h.reconcile();
    expect(find(h, 'NamespaceNotValid')?.reason).toBe('NotValid');
    expect(find(h, 'NetworkMapRefNotValid')?.reason).toBe('NotFound');
    expect(find(h, 'StorageMapNotReady')).toBeDefined();
    expect(find(h, 'VMNotFound')).toBeUndefined();
  });

  it('storage map is not required for type=conversion', async () => {
    const h = setup();
    h.plan.spec.type = 'conversion';
    delete h.plan.spec.map.storage;
    await h.reconcile();
    expect(find(h, 'StorageRefNotValid')).toBeUndefined();
    expect(find(h, 'MigrationTypeNotValid')).toMatchObject({ reason: 'NotSupported' });
  });

  it('VM checks: VMRefNotValid, VMNotFound, DuplicateVM, TargetNameNotValid (Warn), items as Ref.String()', async () => {
    const h = setup();
    h.plan.spec.vms.push({}, { id: 'missing' }, { id: 'vm-0' });
    await h.reconcile();
    expect(find(h, 'VMRefNotValid')).toMatchObject({
      reason: 'NotSet',
      message: 'Either `ID` or `Name` required.',
    });
    expect(find(h, 'VMNotFound')).toMatchObject({
      reason: 'NotFound',
      items: [" id:missing name:'' "],
    });
    expect(find(h, 'DuplicateVM')).toMatchObject({
      reason: 'NotUnique',
      items: [" id:vm-0 name:'' "],
    });
    expect(find(h, 'Ready')).toBeUndefined();
  });

  it('TargetNameNotValid is a Warn for a source name that is not DNS-1123; the plan stays Ready', async () => {
    const h = setup();
    h.plan.spec.vms = [{ id: 'vm-0', name: 'Web Server' }];
    await h.reconcile();
    expect(find(h, 'TargetNameNotValid')).toMatchObject({ category: 'Warn', reason: 'NotValid' });
    expect(find(h, 'Ready')).toBeDefined();
  });

  it('DuplicateVM for a repeated targetName; NotValid for an invalid targetName', async () => {
    const h = setup();
    h.plan.spec.vms = [
      { id: 'vm-0', targetName: 'same' },
      { id: 'vm-1', targetName: 'same' },
    ];
    await h.reconcile();
    expect(find(h, 'DuplicateVM')).toMatchObject({ message: 'Duplicate targetName.' });
    const g = setup();
    g.plan.spec.vms = [{ id: 'vm-0', targetName: 'Not Valid' }];
    await g.reconcile();
    expect(find(g, 'NotValid')).toMatchObject({
      message: 'TargetName is invalid.',
      category: 'Critical',
    });
  });

  it('VMAlreadyExists when the name exists in the target namespace and the plan has no status for the VM', async () => {
    const h = setup();
    await h.destination.ensureVM(
      { id: 'other', name: 'vm-1', phase: '', pipeline: [] },
      { running: false },
    );
    await h.reconcile();
    expect(find(h, 'VMAlreadyExists')).toMatchObject({
      reason: 'NotUnique',
      items: [" id:vm-1 name:'' "],
    });
  });

  it('VMNetworksNotMapped and VMStorageNotMapped', async () => {
    const h = setup();
    h.references.storageMap?.spec.map.splice(0, 1);
    h.references.networkMap?.spec.map.splice(0, 1);
    await h.reconcile();
    const items = [" id:vm-0 name:'' ", " id:vm-1 name:'' "];
    expect(find(h, 'VMStorageNotMapped')).toMatchObject({
      reason: 'NotValid',
      message: 'VM has unmapped storage.',
      items,
    });
    expect(find(h, 'VMNetworksNotMapped')).toMatchObject({
      reason: 'NotValid',
      message: 'VM has unmapped networks.',
      items,
    });
  });

  it('warm needs changed block tracking', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, warm: true });
    (await h.source.findVM({ id: 'vm-0' }))!.changedBlockTracking = false;
    await h.reconcile();
    expect(find(h, 'VMMissingChangedBlockTracking')).toMatchObject({
      category: 'Critical',
      reason: 'MissingChangedBlockTracking',
    });
  });

  it('hooks: HookNotValid NotFound / NotSet, HookNotReady', async () => {
    const h = setup();
    h.plan.spec.vms = [
      { id: 'vm-0', hooks: [{ step: 'PreHook', hook: { name: 'missing' } }] },
      {
        id: 'vm-1',
        hooks: [
          { step: 'PostHook', hook: {} },
          { step: 'PreHook', hook: { name: 'nr' } },
        ],
      },
    ];
    h.references.hook = (_ns, name) =>
      name === 'nr' ? { metadata: { name }, spec: { image: 'x' } } : undefined;
    await h.reconcile();
    const notValid = find(h, 'HookNotValid');
    expect(notValid?.reason).toBe('NotFound');
    expect(notValid?.items).toEqual(["VM:  id:vm-0 name:''  hook: ns/missing"]);
    expect(find(h, 'HookNotReady')?.items).toEqual(["VM:  id:vm-1 name:''  hook: ns/nr"]);
  });

  it('name templates: an invalid volume name template is a Critical NotValid', async () => {
    const h = setup();
    h.plan.spec.volumeNameTemplate = '{{.Nope}}';
    await h.reconcile();
    expect(find(h, 'NotValid')).toMatchObject({ message: 'Volume name template is invalid.' });
  });

  it('name templates: Forklift syntax is Ready; an invalid one names the field, the VM and the error', async () => {
    const h = setup();
    h.plan.spec.pvcNameTemplate =
      '{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data{{end}}-{{ .VmName | lower | trunc 10 }}';
    h.plan.spec.networkNameTemplate = '{{ printf "net-%02d" .NetworkIndex }}';
    await h.reconcile();
    expect(h.planConditions()).toEqual(['Ready']);
    const g = setup();
    g.plan.spec.pvcNameTemplate = '{{.PlanName}}.{{.DiskIndex}}';
    const vm = g.plan.spec.vms[1];
    if (vm) vm.pvcNameTemplate = '{{ nope .VmName }}';
    await g.reconcile();
    expect(find(g, 'NotValid')).toMatchObject({
      category: 'Critical',
      message: 'PVC name template is invalid.',
      items: [
        'spec.pvcNameTemplate: Template output is invalid k8s label [test-plan.0]',
        'spec.vms[1].pvcNameTemplate (VM id:vm-1 name:\'\') disk 0: template: function "nope" not defined',
      ],
    });
    expect(find(g, 'Ready')).toBeUndefined();
  });

  it("issue 31: the documented RootDiskIndex example is Ready, as a VM's own template too", async () => {
    const h = setup({ disks: 2 });
    const vm = h.plan.spec.vms[0];
    if (vm) {
      vm.pvcNameTemplate =
        '{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data{{end}}-{{.DiskIndex}}';
      vm.volumeNameTemplate = 'disk-{{.VolumeIndex}}';
      vm.networkNameTemplate =
        '{{if eq .NetworkType "Pod"}}pod{{else}}multus-{{.NetworkIndex}}{{end}}';
    }
    await h.reconcile();
    expect(h.planConditions()).toEqual(['Ready']);
  });

  it('a template that renders on sample data but not on the VM’s own data is refused at admission', async () => {
    const h = setup({ names: ['Web_Server', 'db'], disks: 2 });
    h.plan.spec.pvcNameTemplate = '{{.VmName}}-{{.DiskIndex}}';
    const db = h.plan.spec.vms[1];
    if (db) db.pvcNameTemplate = '{{if eq .DiskIndex 1}}Data{{else}}os{{end}}';
    h.plan.spec.networkNameTemplate = '{{.NetworkName}}';
    await h.reconcile();
    expect(find(h, 'NotValid')).toMatchObject({
      category: 'Critical',
      message: 'PVC name template is invalid. Network name template is invalid.',
      items: [
        "spec.pvcNameTemplate (VM id:vm-0 name:'') disk 0: Template output is invalid k8s label [Web_Server-0]",
        "spec.vms[1].pvcNameTemplate (VM id:vm-1 name:'') disk 1: Template output is invalid k8s label [Data]",
        // The VMs' one NIC is on the pod network: `.NetworkName` is empty there.
        "spec.networkNameTemplate (VM id:vm-0 name:'') interface 0: Template output is empty: {{.NetworkName}}",
        "spec.networkNameTemplate (VM id:vm-1 name:'') interface 0: Template output is empty: {{.NetworkName}}",
      ],
    });
    expect(find(h, 'Ready')).toBeUndefined();
  });

  it('functions Forklift does not define (sprig’s default, quote, …) are refused at admission', async () => {
    const h = setup({ vms: 1 });
    h.plan.spec.pvcNameTemplate = '{{ default "x" .VmName }}';
    h.plan.spec.volumeNameTemplate = '{{ .PVCName | quote }}';
    await h.reconcile();
    expect(find(h, 'NotValid')?.items).toEqual([
      'spec.pvcNameTemplate: template: function "default" not defined',
      'spec.volumeNameTemplate: template: function "quote" not defined',
    ]);
  });

  it('VM checks are suspended while Executing; Succeeded VMs are skipped', async () => {
    const h = setup();
    h.addMigration();
    await h.reconcile();
    expect(h.planConditions()).toContain('Executing');
    h.plan.spec.vms.push({ id: 'missing' });
    await h.reconcile();
    expect(find(h, 'VMNotFound')).toBeUndefined();
    const g = setup({ vms: 1 });
    g.plan.status = { migration: { vms: [{ id: 'vm-0', phase: 'Completed', pipeline: [] }] } };
    conditionsOf(g.plan.status.migration?.vms?.[0] ?? {}, g.clock).setCondition({
      type: 'Succeeded',
      status: 'True',
      category: 'Advisory',
      durable: true,
    });
    g.plan.spec.vms[0] = {
      id: 'vm-0',
      targetName: 'Not Valid',
      pvcNameTemplate: '{{.VmName | upper}}',
    };
    await g.reconcile();
    expect(find(g, 'NotValid')).toBeUndefined();
  });
});
