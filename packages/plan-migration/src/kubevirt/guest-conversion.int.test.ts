import { realClock } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Builder } from '../adapter.js';
import type { Plan } from '../api/plan.js';
import type { Ref } from '../api/ref.js';
import { forkliftCrds } from '../crds.js';
import { type CoreApi, type CustomApi, coreApi, customApi } from '../internal/kube-api.js';
import { PlanController } from '../plan-controller.js';
import { SimulatedSource } from '../simulated-source.js';
import { CdiSimulator } from '../testing/cdi-simulator.js';
import { KubeVirtSimulator } from '../testing/kubevirt-simulator.js';
import { PlanFixture } from '../testing/plan-fixture.js';
import { PodJobSimulator } from '../testing/pod-job-simulator.js';
import { kubevirtCrds, VIRTUAL_MACHINES, type VirtualMachine } from './crds.js';
import { KubeVirtDestination } from './kubevirt-destination.js';

let kubeConfig: KubeConfig;
let custom: CustomApi;
let core: CoreApi;
const stop = new AbortController();

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  custom = customApi(createClient(kubeConfig));
  core = coreApi(createClient(kubeConfig));
  await installCRDs(kubeConfig, [...forkliftCrds, ...kubevirtCrds]);
});

afterAll(() => stop.abort());

const trueTypes = (o: { conditions?: Array<{ type: string; status: string }> } | undefined) =>
  (o?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

describe('guest conversion through virt-v2v (an ova source)', () => {
  it('allocates blank disks, runs the conversion pod on the NFS share, creates the VM; a failed pod fails only its VM', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'ova-plan-');
    const target = await createTestNamespace(kubeConfig, 'ova-target-');
    const fixture = new PlanFixture({ client: kubeConfig, namespace });
    await fixture.createProvidersAndMaps({
      sourceName: 'ova',
      source: { type: 'ova', url: 'nfs.example:/exports/ova' },
      storageClass: 'standard',
      ready: true,
    });
    // A stub OVA source: the simulated inventory, its power and tasks, and an OVA pod environment.
    const inventory = new SimulatedSource({
      clock: realClock,
      vms: ['web', 'db'].map((name, i) => ({
        id: `vm-${i}`,
        name,
        powerState: 'Off' as const,
        networks: ['net-1'],
        disks: [{ id: `disk-${i}`, capacityMiB: 64, datastore: 'ds-1' }],
      })),
    });
    const builder: Builder = {
      tasks: (vm: Ref) => inventory.tasks(vm),
      podEnvironment: async (vm: Ref) => [
        { name: 'V2V_source', value: 'ova' },
        { name: 'V2V_diskPath', value: `/ova/${vm.id}.ova` },
        { name: 'V2V_vmName', value: (await inventory.findVM(vm))?.name ?? '' },
      ],
    };
    const factory = new SharedInformerFactory(kubeConfig, {});
    const cdi = new CdiSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 });
    const kubevirt = new KubeVirtSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 });
    const pods = new PodJobSimulator({
      kubeConfig,
      informerFactory: factory,
      stepMs: 20,
      podFails: (pod) =>
        pod.metadata?.labels?.vmID === 'vm-1' ? 'virt-v2v: inspection failed' : undefined,
    });
    const controller = new PlanController({
      kubeConfig,
      informerFactory: factory,
      sources: (p) =>
        p.spec.type === 'ova'
          ? {
              inventory,
              client: inventory,
              builder,
              validator: (plan, maps) => inventory.validator(plan, maps),
            }
          : undefined,
      destination: (c) => new KubeVirtDestination(c),
      pollIntervalMs: 100,
    });
    for (const r of [cdi, kubevirt, pods, controller]) void r.run(stop.signal);
    factory.start(stop.signal);

    await fixture.createPlan('plan', {
      targetNamespace: target,
      vms: [{ id: 'vm-0' }, { id: 'vm-1' }],
    });
    await fixture.create('Migration', 'm1', { plan: { name: 'plan' } });
    const p = await waitFor('Failed', () => fixture.read<Plan>('Plan', 'plan'), {
      until: (p) => trueTypes(p.status).includes('Failed'),
    });
    const vm0 = p.status?.migration?.vms?.find((v) => v.id === 'vm-0');
    const vm1 = p.status?.migration?.vms?.find((v) => v.id === 'vm-1');
    expect(trueTypes(vm0)).toEqual(['Succeeded']);
    expect(vm0?.pipeline.map((s) => s.name)).toEqual([
      'Initialize',
      'DiskAllocation',
      'ImageConversion',
      'DiskTransferV2v',
      'VirtualMachineCreation',
    ]);
    expect(vm0?.pipeline.find((s) => s.name === 'DiskTransferV2v')?.progress).toEqual({
      completed: 64,
      total: 64,
    });
    expect(trueTypes(vm1)).toEqual(['Failed']);
    expect(vm1?.pipeline.find((s) => s.name === 'ImageConversion')?.error?.reasons).toEqual([
      'Guest conversion failed: virt-v2v: inspection failed',
    ]);

    // Blank DataVolumes for virt-v2v to fill.
    const dvs = [...cdi.seen.values()].filter((d) => d.metadata.namespace === target);
    expect(dvs.map((d) => d.spec.source)).toEqual([{ blank: {} }, { blank: {} }]);
    // The conversion pods mount the disks and the NFS share, with the builder's environment.
    const convPods = (
      await core.listNamespacedPod({ namespace: target, labelSelector: 'forklift.app=virt-v2v' })
    ).items;
    expect(convPods.map((x) => [x.metadata?.labels?.vmID, x.status?.phase]).sort()).toEqual([
      ['vm-0', 'Succeeded'],
      ['vm-1', 'Failed'],
    ]);
    const pod0 = convPods.find((x) => x.metadata?.labels?.vmID === 'vm-0');
    expect(pod0?.spec?.containers[0]?.env).toEqual([
      { name: 'V2V_source', value: 'ova' },
      { name: 'V2V_diskPath', value: '/ova/vm-0.ova' },
      { name: 'V2V_vmName', value: 'web' },
    ]);
    expect(pod0?.spec?.containers[0]?.volumeMounts?.map((m) => m.mountPath)).toEqual([
      '/mnt/disks/disk0',
      '/ova',
    ]);
    const storeClaim = pod0?.spec?.volumes?.find((v) => v.name === 'store-pv')
      ?.persistentVolumeClaim?.claimName;
    expect(storeClaim).toMatch(/^ova-store-pvc-ova-plan-/);
    const pvs = (await core.listPersistentVolume({ labelSelector: 'ova=nfs-pv,vmID=vm-0' })).items;
    expect(pvs).toHaveLength(1);
    expect(pvs[0]?.spec?.nfs).toEqual({ server: 'nfs.example', path: '/exports/ova' });
    expect(pvs[0]?.metadata?.labels).toMatchObject({ 'plan-name': 'plan', migration: 'm1' });
    // The VM of the converted guest.
    const vms = (
      (await custom.listNamespacedCustomObject({
        group: VIRTUAL_MACHINES.group,
        version: VIRTUAL_MACHINES.version,
        plural: VIRTUAL_MACHINES.resource,
        namespace: target,
      })) as { items: VirtualMachine[] }
    ).items;
    expect(vms.map((v) => [v.metadata.name, v.spec.runStrategy])).toEqual([['web', 'Halted']]);
  });
});
