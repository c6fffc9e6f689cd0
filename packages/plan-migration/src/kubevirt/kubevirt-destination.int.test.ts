import { realClock } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1ConfigMap, V1Job, V1Secret } from '@kubernetes/client-node';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../api/plan.js';
import { forkliftCrds, GROUP, PLURALS, VERSION } from '../crds.js';
import { type CoreApi, type CustomApi, coreApi, customApi } from '../internal/kube-api.js';
import { PlanController } from '../plan-controller.js';
import { SimulatedSource } from '../simulated-source.js';
import { CdiSimulator } from '../testing/cdi-simulator.js';
import { KubeVirtSimulator } from '../testing/kubevirt-simulator.js';
import { PlanFixture, type PlanFixtureSpec } from '../testing/plan-fixture.js';
import { PodJobSimulator } from '../testing/pod-job-simulator.js';
import {
  DATA_VOLUMES,
  type DataVolume,
  kubevirtCrds,
  VIRTUAL_MACHINES,
  type VirtualMachine,
} from './crds.js';
import { JobHookRunner } from './job-hook-runner.js';
import { KubeVirtDestination } from './kubevirt-destination.js';

let kubeConfig: KubeConfig;
let custom: CustomApi;
let core: CoreApi;
const stops: AbortController[] = [];

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  custom = customApi(createClient(kubeConfig));
  core = coreApi(createClient(kubeConfig));
  await installCRDs(kubeConfig, [...forkliftCrds, ...kubevirtCrds]);
});

afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
});

const trueTypes = (o: { conditions?: Array<{ type: string; status: string }> } | undefined) =>
  (o?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);
const vmStatus = (p: Plan, id: string) => p.status?.migration?.vms?.find((v) => v.id === id);

/** Providers, maps and hooks (Ready), the simulated source, the simulators and the controller on KubeVirtDestination. */
async function setup(
  options: {
    diskMiB?: number;
    progressPerStep?: number | ((dv: DataVolume) => number);
    fails?: (dv: DataVolume) => string | undefined;
  } = {},
) {
  const namespace = await createTestNamespace(kubeConfig, 'kv-plan-');
  const target = await createTestNamespace(kubeConfig, 'kv-target-');
  const fixture = new PlanFixture({ client: kubeConfig, namespace });
  await fixture.createProvidersAndMaps({
    source: { type: 'simulated' },
    storageClass: 'standard',
    ready: true,
  });
  const hooks: Array<[string, object]> = [
    ['ok', { image: 'quay.io/konveyor/hook-runner', playbook: btoa('- hosts: localhost\n') }],
    ['bad', { image: 'quay.io/example/fail', deadline: 60 }],
  ];
  for (const [name, spec] of hooks) {
    await fixture.create('Hook', name, spec);
    await fixture.markReady('Hook', name);
  }
  const source = new SimulatedSource({
    clock: realClock,
    vms: ['vm-0', 'VM_1'].map((name, i) => ({
      id: `vm-${i}`,
      name,
      powerState: i === 0 ? ('On' as const) : ('Off' as const),
      networks: ['net-1'],
      disks: [
        { id: 'disk-0', capacityMiB: options.diskMiB ?? 100, datastore: 'ds-1' },
        { id: 'disk-1', capacityMiB: 50, datastore: 'ds-1' },
      ],
    })),
  });
  const stop = new AbortController();
  stops.push(stop);
  const factory = new SharedInformerFactory(kubeConfig, {});
  const cdi = new CdiSimulator({
    kubeConfig,
    informerFactory: factory,
    stepMs: 20,
    progressPerStep: options.progressPerStep ?? 50,
    ...(options.fails && { fails: options.fails }),
  });
  // Record what was created for the plan: the destination deletes Secrets and ConfigMaps on success.
  const created = {
    secrets: [] as Wire<V1Secret>[],
    configMaps: [] as Wire<V1ConfigMap>[],
    jobs: [] as Wire<V1Job>[],
  };
  factory
    .forResource<Wire<V1Job>>('batch/v1/jobs', { namespace })
    .addEventHandler({ onAdd: (j) => created.jobs.push(j) });
  factory
    .forResource<Wire<V1Secret>>('secrets', { namespace: target })
    .addEventHandler({ onAdd: (s) => created.secrets.push(s) });
  for (const ns of [target, namespace]) {
    factory
      .forResource<Wire<V1ConfigMap>>('configmaps', { namespace: ns })
      .addEventHandler({ onAdd: (c) => created.configMaps.push(c) });
  }
  const kubevirt = new KubeVirtSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 });
  const pods = new PodJobSimulator({
    kubeConfig,
    informerFactory: factory,
    stepMs: 20,
    jobFails: (job) =>
      job.spec?.template.spec?.containers[0]?.image?.includes('fail')
        ? 'hook playbook failed'
        : undefined,
  });
  const controller = new PlanController({
    kubeConfig,
    informerFactory: factory,
    sources: (p) =>
      p.spec.type === 'simulated'
        ? {
            inventory: source,
            client: source,
            builder: source,
            validator: (plan, maps) => source.validator(plan, maps),
          }
        : undefined,
    destination: (c) => new KubeVirtDestination(c),
    hookRunner: new JobHookRunner({ kubeConfig }),
    pollIntervalMs: 100,
  });
  const runs = [cdi.run(stop.signal), kubevirt.run(stop.signal), pods.run(stop.signal)];
  runs.push(controller.run(stop.signal));
  factory.start(stop.signal);
  const plan = (spec: Omit<PlanFixtureSpec, 'targetNamespace'>) =>
    fixture.createPlan('plan', { targetNamespace: target, ...spec });
  const migration = async () => {
    await fixture.create('Migration', 'm1', { plan: { name: 'plan' } });
    const m = await fixture.read<{ metadata: { uid: string } }>('Migration', 'm1');
    return m.metadata.uid;
  };
  const readPlan = () => fixture.read<Plan>('Plan', 'plan');
  const untilPlan = (what: string, ok: (p: Plan) => boolean) =>
    waitFor(what, readPlan, { until: ok });
  const list = async <T>(gvr: { group: string; version: string; resource: string }) =>
    (
      (await custom.listNamespacedCustomObject({
        group: gvr.group,
        version: gvr.version,
        plural: gvr.resource,
        namespace: target,
      })) as { items: T[] }
    ).items;
  return { namespace, target, source, cdi, created, plan, migration, readPlan, untilPlan, list };
}

describe('KubeVirtDestination with the CDI, KubeVirt and Pod/Job simulators', () => {
  it('moves 2 VMs of the simulated source through the cdi path to Succeeded', async () => {
    const t = await setup();
    await t.plan({
      targetLabels: { team: 'blue' },
      vms: [
        { id: 'vm-0', hooks: [{ step: 'PreHook', hook: { name: 'ok' } }] },
        { id: 'vm-1', targetPowerState: 'on' },
      ],
    });
    const migrationUID = await t.migration();
    const p = await t.untilPlan('Succeeded', (p) => trueTypes(p.status).includes('Succeeded'));
    expect(trueTypes(vmStatus(p, 'vm-0'))).toEqual(['Succeeded']);
    expect(trueTypes(vmStatus(p, 'vm-1'))).toEqual(['Succeeded']);
    const disks = vmStatus(p, 'vm-0')?.pipeline.find((s) => s.name === 'DiskTransfer');
    expect(disks?.progress).toEqual({ completed: 150, total: 150 });

    const vmLabels = (id: string) => ({
      migration: migrationUID,
      plan: p.metadata.uid,
      'plan-name': 'plan',
      'plan-namespace': t.namespace,
      vmID: id,
      resource: 'vm-config',
    });
    // DataVolumes, as CDI saw them (the destination deletes them once the VM owns the PVCs).
    const dvs = [...t.cdi.seen.values()].filter((d) => d.metadata.namespace === t.target);
    expect(dvs).toHaveLength(4);
    for (const dv of dvs) {
      const id = dv.metadata.labels?.vmID ?? '';
      expect(dv.metadata.name).toMatch(new RegExp(`^plan-${id}-[a-z0-9]{5}$`));
      expect(dv.metadata.labels).toEqual(vmLabels(id));
      expect(dv.metadata.annotations).toMatchObject({
        ...vmLabels(id),
        'cdi.kubevirt.io/storage.deleteAfterCompletion': 'false',
      });
      expect(dv.spec.storage).toEqual({
        resources: {
          requests: {
            storage:
              dv.metadata.annotations?.['forklift.konveyor.io/disk-source'] === 'disk-0'
                ? '100Mi'
                : '50Mi',
          },
        },
        storageClassName: 'standard', // the StorageMap's class of datastore ds-1
      });
      // Cold, from a source that is not OpenShift, to the host cluster: no immediate binding.
      expect(dv.metadata.annotations?.['cdi.kubevirt.io/storage.bind.immediate.requested']).toBe(
        undefined,
      );
      expect(dv.spec.source).toMatchObject({
        http: {
          url: `http://simulated.invalid/${id}/${dv.metadata.annotations?.['forklift.konveyor.io/disk-source']}`,
        },
      });
    }
    expect(await t.list<DataVolume>(DATA_VOLUMES)).toEqual([]);
    // The per-VM Secret (isDV) and ConfigMap.
    for (const id of ['vm-0', 'vm-1']) {
      const secrets = t.created.secrets.filter((s) => s.metadata?.labels?.vmID === id);
      expect(secrets.map((s) => s.metadata?.labels)).toEqual([{ ...vmLabels(id), isDV: 'true' }]);
      const maps = t.created.configMaps.filter(
        (c) => c.metadata?.labels?.vmID === id && c.metadata.namespace === t.target,
      );
      expect(maps.map((c) => c.metadata?.labels)).toEqual([vmLabels(id)]);
    }
    // The PreHook ran as a Job with the hook's image and the decoded playbook.
    const hook = await custom.getNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Hook,
      namespace: t.namespace,
      name: 'ok',
    });
    expect(t.created.jobs).toHaveLength(1);
    const job = t.created.jobs[0];
    expect(job?.metadata?.labels).toEqual({
      plan: p.metadata.uid,
      migration: migrationUID,
      vmID: 'vm-0',
      step: 'PreHook',
      hook: (hook as { metadata: { uid: string } }).metadata.uid,
      resource: 'hook-config',
    });
    const container = job?.spec?.template.spec?.containers[0];
    expect(container?.image).toBe('quay.io/konveyor/hook-runner');
    expect(container?.command?.slice(-2)).toEqual(['-p', '/tmp/hook/playbook.yml']);
    const hookMap = job?.spec?.template.spec?.volumes?.[0]?.configMap?.name;
    const hookConfig = t.created.configMaps.find((c) => c.metadata?.name === hookMap);
    expect(hookConfig?.metadata?.labels).toEqual(job?.metadata?.labels);
    expect(hookConfig?.data?.['playbook.yml']).toBe('- hosts: localhost\n');
    // plan.yml and workload.yml as Forklift's hook runner writes them (yaml.v2: Go field
    // names in lower case, embedded structs nested), the VM from the source's inventory.
    const planYml = JSON.parse(hookConfig?.data?.['plan.yml'] ?? '{}');
    expect(planYml.targetnamespace).toBe(t.target);
    expect(planYml.vms[0].ref).toMatchObject({ id: 'vm-0' });
    expect(planYml.vms[0].hooks[0]).toMatchObject({ step: 'PreHook', hook: { name: 'ok' } });
    const workload = JSON.parse(hookConfig?.data?.['workload.yml'] ?? '{}');
    const planned = await t.readPlan();
    const sourceUID = planned.status?.migration?.history?.at(-1)?.provider?.source?.uid;
    expect(sourceUID).toBeTruthy();
    expect(workload.selflink).toBe(`providers/simulated/${sourceUID}/workloads/vm-0`);
    expect(workload.vm.vm1.vm0).toMatchObject({ id: 'vm-0', name: 'vm-0' });
    const inventoryVM0 = await t.source.findVM({ id: 'vm-0' });
    expect(workload.vm.disks.map((d: { base: { id: string } }) => d.base.id)).toEqual(
      inventoryVM0?.disks.map((d) => d.id),
    );
    expect(workload.vm.networks.map((n: { base: { id: string } }) => n.base.id)).toEqual(['net-1']);
    // The VirtualMachines.
    const vms = await waitFor('VMs with status', () => t.list<VirtualMachine>(VIRTUAL_MACHINES), {
      until: (l) => l.length === 2 && l.every((v) => v.status?.printableStatus !== undefined),
    });
    const byID = new Map(vms.map((v) => [v.metadata.labels?.vmID, v]));
    const vm0 = byID.get('vm-0');
    const vm1 = byID.get('vm-1');
    expect(vm0?.metadata.name).toBe('vm-0');
    expect(vm0?.metadata.annotations).toBeUndefined();
    expect(vm0?.spec.runStrategy).toBe('Always'); // auto, the source was on
    expect(vm0?.status).toMatchObject({ printableStatus: 'Running', ready: true });
    expect(vm1?.metadata.name).toBe('vm-1'); // VM_1 is no DNS-1123 name
    expect(vm1?.metadata.annotations).toEqual({
      'openshift.io/display-name': 'VM_1',
      'original-ID': 'vm-1',
    });
    expect(vm1?.spec.runStrategy).toBe('Always'); // targetPowerState on, the source was off
    for (const v of vms) {
      expect(v.metadata.labels).toEqual(vmLabels(v.metadata.labels?.vmID ?? ''));
      expect(v.spec.template.metadata?.labels).toEqual({ team: 'blue', app: v.metadata.name });
    }
    // The PVCs (bound by CDI) are owned by their VM.
    const pvcs = (await core.listNamespacedPersistentVolumeClaim({ namespace: t.target })).items;
    expect(pvcs).toHaveLength(4);
    for (const pvc of pvcs) {
      const owner = byID.get(pvc.metadata?.labels?.vmID);
      expect(pvc.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'kubevirt.io/v1',
          kind: 'VirtualMachine',
          name: owner?.metadata.name,
          uid: owner?.metadata.uid,
          blockOwnerDeletion: true,
          controller: false,
        },
      ]);
    }
    type Volumes = { volumes?: Array<{ persistentVolumeClaim: { claimName: string } }> };
    const volumes = (vm0?.spec.template.spec as Volumes | undefined)?.volumes ?? [];
    expect(volumes.map((v) => v.persistentVolumeClaim.claimName).sort()).toEqual(
      pvcs
        .filter((c) => c.metadata?.labels?.vmID === 'vm-0')
        .map((c) => c.metadata?.name)
        .sort(),
    );
  });

  it('a failing PreHook Job fails only its VM; cancel removes the canceled VM’s destination objects', async () => {
    const t = await setup({ diskMiB: 100_000, progressPerStep: 0.01 });
    await t.plan({
      deleteVmOnFailMigration: true,
      vms: [{ id: 'vm-0', hooks: [{ step: 'PreHook', hook: { name: 'bad' } }] }, { id: 'vm-1' }],
    });
    await t.migration();
    const failed = await t.untilPlan(
      'vm-0 Failed, vm-1 copying',
      (p) =>
        trueTypes(vmStatus(p, 'vm-0')).includes('Failed') &&
        vmStatus(p, 'vm-1')?.phase === 'CopyDisks',
    );
    expect(vmStatus(failed, 'vm-0')?.error?.reasons).toEqual(['hook playbook failed']);
    expect(
      vmStatus(failed, 'vm-0')?.pipeline.find((s) => s.name === 'PreHook')?.error?.reasons,
    ).toEqual(['hook playbook failed']);
    expect((await t.list<DataVolume>(DATA_VOLUMES)).map((d) => d.metadata.labels?.vmID)).toEqual([
      'vm-1',
      'vm-1',
    ]);
    await custom.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Migration,
      namespace: t.namespace,
      name: 'm1',
      body: { spec: { cancel: [{ id: 'vm-1' }] } },
    });
    const p = await t.untilPlan('Failed', (p) => trueTypes(p.status).includes('Failed'));
    expect(trueTypes(vmStatus(p, 'vm-1'))).toContain('Canceled');
    await waitFor('vm-1 DataVolumes gone', () => t.list<DataVolume>(DATA_VOLUMES), {
      until: (l) => l.length === 0,
    });
    const left = await Promise.all([
      core.listNamespacedSecret({ namespace: t.target, labelSelector: 'vmID=vm-1' }),
      core.listNamespacedConfigMap({ namespace: t.target, labelSelector: 'vmID=vm-1' }),
    ]);
    expect(left.map((l) => l.items.length)).toEqual([0, 0]);
    expect(await t.list<VirtualMachine>(VIRTUAL_MACHINES)).toEqual([]);
  });

  it('a failed CDI import fails only its VM, with the DataVolume’s message', async () => {
    const t = await setup({
      fails: (dv) =>
        dv.metadata.labels?.vmID === 'vm-0' &&
        dv.metadata.annotations?.['forklift.konveyor.io/disk-source'] === 'disk-1'
          ? 'Unable to connect to http data source'
          : undefined,
    });
    await t.plan({ vms: [{ id: 'vm-0' }, { id: 'vm-1' }] });
    await t.migration();
    const p = await t.untilPlan('Failed', (p) => trueTypes(p.status).includes('Failed'));
    expect(trueTypes(vmStatus(p, 'vm-0'))).toEqual(['Failed']);
    expect(vmStatus(p, 'vm-0')?.error?.reasons).toEqual(['Unable to connect to http data source']);
    expect(trueTypes(vmStatus(p, 'vm-1'))).toEqual(['Succeeded']);
  });

  it('ensures are idempotent: a second pass creates nothing new', async () => {
    const t = await setup();
    await t.plan({ vms: [{ id: 'vm-0' }] });
    const plan = await t.untilPlan('Ready', (p) => trueTypes(p.status).includes('Ready'));
    const destination = new KubeVirtDestination({
      kubeConfig,
      plan,
      migrationUID: 'm-uid',
      builder: t.source,
    });
    const vm = { id: 'vm-0', name: 'vm-0', phase: 'CreateDataVolumes', pipeline: [] };
    const tasks = await t.source.tasks(vm);
    await destination.ensureDataVolumes(vm, tasks);
    const writes = destination.writes;
    await destination.ensureDataVolumes(vm, tasks);
    expect(destination.writes).toBe(writes);
    expect(await t.list<DataVolume>(DATA_VOLUMES)).toHaveLength(2);
    await waitFor('PVCs bound', () => destination.diskTransfers(vm), {
      until: (d) => d.length === 2 && d.every((x) => x.phase === 'Succeeded'),
    });
    const first = await destination.ensureVM(vm, { running: false });
    const second = await destination.ensureVM(vm, { running: false });
    expect(second).toEqual(first);
    expect(await t.list<VirtualMachine>(VIRTUAL_MACHINES)).toHaveLength(1);
    expect(await destination.vmExists(t.target, 'vm-0')).toBe(true);
  });

  it('deleting the Plan deletes its orphans but keeps the VirtualMachines and the PVCs they own', async () => {
    const t = await setup({
      progressPerStep: (dv) => (dv.metadata.labels?.vmID === 'vm-1' ? 0.01 : 50),
    });
    await t.plan({ vms: [{ id: 'vm-0' }, { id: 'vm-1' }] });
    await t.migration();
    await t.untilPlan(
      'vm-0 done, vm-1 copying',
      (p) =>
        trueTypes(vmStatus(p, 'vm-0')).includes('Succeeded') &&
        vmStatus(p, 'vm-1')?.phase === 'CopyDisks',
    );
    await waitFor(
      'vm-1 PVCs bound',
      () =>
        core.listNamespacedPersistentVolumeClaim({
          namespace: t.target,
          labelSelector: 'vmID=vm-1',
        }),
      { until: (l) => l.items.length === 2 },
    );
    await custom.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Plan,
      namespace: t.namespace,
      name: 'plan',
    });
    await waitFor(
      'vm-1 orphans gone',
      async () => [
        ...(await t.list<DataVolume>(DATA_VOLUMES)),
        ...(await core.listNamespacedSecret({ namespace: t.target, labelSelector: 'vmID=vm-1' }))
          .items,
        ...(
          await core.listNamespacedPersistentVolumeClaim({
            namespace: t.target,
            labelSelector: 'vmID=vm-1',
          })
        ).items.filter((c) => c.metadata?.deletionTimestamp === undefined),
      ],
      { until: (left) => left.length === 0 },
    );
    const vms = await t.list<VirtualMachine>(VIRTUAL_MACHINES);
    expect(vms.map((v) => v.metadata.name)).toEqual(['vm-0']);
    const kept = (
      await core.listNamespacedPersistentVolumeClaim({
        namespace: t.target,
        labelSelector: 'vmID=vm-0',
      })
    ).items;
    expect(kept).toHaveLength(2);
    for (const c of kept) expect(c.metadata?.ownerReferences?.[0]?.kind).toBe('VirtualMachine');
  });
});
