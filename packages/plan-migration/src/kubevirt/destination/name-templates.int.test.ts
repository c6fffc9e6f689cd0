import { realClock } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { type Client, createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkMap } from '../../api/mapping.js';
import type { Plan, PlanVM, VMStatus } from '../../api/plan.js';
import { NameTemplateError } from '../../name-templates.js';
import { SimulatedSource } from '../../simulated-source.js';
import { CdiSimulator } from '../../testing/cdi-simulator.js';
import {
  DATA_VOLUMES,
  type DataVolume,
  kubevirtCrds,
  VIRTUAL_MACHINES,
  type VirtualMachine,
} from '../crds.js';
import { KubeVirtDestination } from '../kubevirt-destination.js';

let kubeConfig: KubeConfig;
let client: Client;
const stops: AbortController[] = [];

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  client = createClient(kubeConfig);
  await installCRDs(kubeConfig, kubevirtCrds);
});

afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
});

afterAll(() => client.close());

const networkMap = {
  metadata: { name: 'net', namespace: 'ns' },
  spec: {
    provider: { source: { name: 'src' }, destination: { name: 'host' } },
    map: [
      { source: { id: 'net-1' }, destination: { type: 'pod' } },
      { source: { name: 'lab' }, destination: { type: 'multus', namespace: 'nets', name: 'br' } },
      { source: { name: 'unused' }, destination: { type: 'ignored' } },
    ],
  },
} as NetworkMap;

/** A VM with two disks and three NICs (pod, Multus, ignored), its plan and the destination, CDI simulated. */
async function setup(vmSpec: Omit<PlanVM, 'id'>, planSpec: Partial<Plan['spec']> = {}) {
  const target = await createTestNamespace(kubeConfig, 'names-');
  const source = new SimulatedSource({
    clock: realClock,
    vms: [
      {
        id: 'vm-0',
        name: 'Web_Server',
        powerState: 'Off',
        networks: ['net-1', 'unused', 'lab'],
        nics: [
          { name: 'nic0', mac: '02:00:00:00:00:01', network: 'net-1' },
          { name: 'nic1', mac: '', network: 'unused' },
          { name: 'nic2', mac: '02:00:00:00:00:03', network: 'lab' },
        ],
        disks: [
          { id: 'disk-0', capacityMiB: 10, datastore: 'ds-1' },
          { id: 'disk-1', capacityMiB: 10, datastore: 'ds-1' },
        ],
      },
    ],
  });
  const plan = {
    metadata: { name: 'web-plan', namespace: 'ns', uid: `uid-${target}` },
    spec: {
      provider: { source: { name: 'src' }, destination: { name: 'host' } },
      targetNamespace: target,
      map: { network: { name: 'net' } },
      vms: [{ id: 'vm-0', ...vmSpec }],
      ...planSpec,
    },
  } as Plan;
  const stop = new AbortController();
  stops.push(stop);
  const factory = new SharedInformerFactory(kubeConfig, {});
  const cdi = new CdiSimulator({
    kubeConfig,
    informerFactory: factory,
    stepMs: 20,
    progressPerStep: 100,
  });
  void cdi.run(stop.signal);
  factory.start(stop.signal);
  const destination = new KubeVirtDestination({
    kubeConfig,
    plan,
    migrationUID: 'm-uid',
    builder: source,
    inventory: source,
    networkMap,
  });
  // The status as the runner has it at CreateDataVolumes: the source name was not DNS-1123.
  const vm: VMStatus = {
    id: 'vm-0',
    name: 'Web_Server',
    newName: 'web-server',
    phase: 'CreateDataVolumes',
    pipeline: [],
  };
  const list = async <T>(gvr: { group: string; version: string; resource: string }) =>
    (await client.list(gvr, { namespace: target })).items as unknown as T[];
  const createVM = async () => {
    await destination.ensureDataVolumes(vm, await source.tasks(vm));
    await waitFor('disks copied', () => destination.diskTransfers(vm), {
      until: (d) => d.length === 2 && d.every((x) => x.phase === 'Succeeded'),
    });
    await destination.ensureVM(vm, { running: false });
    const [object] = await list<VirtualMachine>(VIRTUAL_MACHINES);
    return object?.spec.template as {
      spec: {
        volumes: Array<{ name: string; persistentVolumeClaim: { claimName: string } }>;
        networks?: Array<Record<string, unknown>>;
        domain: {
          devices: { disks: Array<{ name: string }>; interfaces?: Array<Record<string, unknown>> };
        };
      };
    };
  };
  return { destination, source, vm, list, createVM };
}

describe('KubeVirtDestination: name templates at their call sites', () => {
  it("issue 31: the documented RootDiskIndex PVC template names the DataVolumes; volume and network templates name the VM's volumes and interfaces", async () => {
    const t = await setup(
      {
        volumeNameTemplate: 'pvc-{{.PVCName}}',
        networkNameTemplate:
          '{{if eq .NetworkType "Pod"}}pod{{else}}multus-{{.NetworkIndex}}{{end}}',
      },
      // The plan's template: the VM has none of its own.
      {
        pvcNameTemplate:
          '{{if eq .DiskIndex .RootDiskIndex}}root{{else}}data{{end}}-{{.DiskIndex}}',
      },
    );
    const template = await t.createVM();
    expect(template.spec.volumes).toEqual([
      { name: 'pvc-root-0', persistentVolumeClaim: { claimName: 'root-0' } },
      { name: 'pvc-data-1', persistentVolumeClaim: { claimName: 'data-1' } },
    ]);
    expect(template.spec.domain.devices.disks.map((d) => d.name)).toEqual([
      'pvc-root-0',
      'pvc-data-1',
    ]);
    expect(template.spec.domain.devices.interfaces).toEqual([
      { name: 'pod', model: 'virtio', macAddress: '02:00:00:00:00:01', masquerade: {} },
      { name: 'multus-1', model: 'virtio', macAddress: '02:00:00:00:00:03', bridge: {} },
    ]);
    expect(template.spec.networks).toEqual([
      { name: 'pod', pod: {} },
      { name: 'multus-1', multus: { networkName: 'nets/br' } },
    ]);
  });

  it('TargetVmName (the renamed VM) in a PVC template; without volume and network templates the defaults vol-N and net-N', async () => {
    const t = await setup({ pvcNameTemplate: '{{.TargetVmName}}-disk-{{.DiskIndex}}' });
    const template = await t.createVM();
    expect(template.spec.volumes.map((v) => [v.name, v.persistentVolumeClaim.claimName])).toEqual([
      ['vol-0', 'web-server-disk-0'],
      ['vol-1', 'web-server-disk-1'],
    ]);
    expect(template.spec.networks?.map((n) => n.name)).toEqual(['net-0', 'net-1']);
  });

  it('a PVC template that does not render creates no DataVolume and names the field, the VM and the disk', async () => {
    const t = await setup({ pvcNameTemplate: '{{.VmName}}-{{.DiskIndex}}' });
    const error = await t.destination
      .ensureDataVolumes(t.vm, await t.source.tasks(t.vm))
      .catch((e: unknown) => e);
    expect(NameTemplateError.isInstance(error) && error.reason).toBe('NameNotValid');
    expect((error as Error).message).toBe(
      'spec.vms[0].pvcNameTemplate of VM vm-0, disk 0: Template output is invalid k8s label [Web_Server-0]',
    );
    expect(await t.list<DataVolume>(DATA_VOLUMES)).toEqual([]);
  });

  it('volume and network templates that do not render give the default names, as Forklift does', async () => {
    const t = await setup({
      volumeNameTemplate: '{{.PVCName | upper}}',
      networkNameTemplate: '{{.NetworkName}}',
    });
    const template = await t.createVM();
    expect(template.spec.volumes.map((v) => v.name)).toEqual(['vol-0', 'vol-1']);
    // The pod network has no name: net-0; the Multus one renders `br`.
    expect(template.spec.networks?.map((n) => n.name)).toEqual(['net-0', 'br']);
  });
});
