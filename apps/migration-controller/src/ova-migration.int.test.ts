// End to end, OVA source → KubeVirt destination (issue 15): the built controller, as the
// ServiceAccount of deploy/ with only the RBAC of deploy/rbac.yaml, leader election on, the
// default destination and `--ova-catalog-path` on a folder where this test writes the ova
// Provider's share (nfs.example:/exports/ova) at nfs.example/exports/ova, its catalog (.ova
// archives and plain .ovf files from four exporters), migrates its VMs. CDI, KubeVirt and the
// kubelet/Job controller, which envtest does not run, are the package's simulators, run here.
// Every Ready comes from the app's own controllers.
import { join } from 'node:path';
import { type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { forkliftCrds, type InventoryVM } from '@ctrlkit/plan-migration';
import type { Migration, Plan, VMStatus } from '@ctrlkit/plan-migration/api';
import {
  type DataVolume,
  kubevirtCrds,
  type VirtualMachine,
} from '@ctrlkit/plan-migration/kubevirt';
import { OvaInventory, OvaSource } from '@ctrlkit/plan-migration/ova';
import {
  CdiSimulator,
  COLLECTION_OVF,
  KubeVirtSimulator,
  makeCatalogDir,
  PlanFixture,
  type PlanFixtureSpec,
  PodJobSimulator,
  VIRTUALBOX_OVF,
  VMWARE_OVF,
  writeCatalogFiles,
  XEN_OVF,
} from '@ctrlkit/plan-migration/testing';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { type Client, createClient, type KubeObject } from '@ctrlkit/runtime/client';
import type {
  KubeConfig,
  V1ConfigMap,
  V1Job,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1Secret,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../test/app-process.js';

/** client-node's custom object coordinates (PlanFixture.path, DV, VMS) as the one client's resource. */
const resourceOf = (path: { group: string; version: string; plural: string }) => ({
  group: path.group,
  version: path.version,
  resource: path.plural,
});
const DV = { group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'datavolumes' };
const VMS = { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines' };
/** The hook image the PodJobSimulator fails, with this message. */
const FAILING_HOOK_IMAGE = 'quay.io/example/fail-hook:latest';
const HOOK_FAILURE = 'hook playbook failed: the guest agent is not reachable';
/** The conversion pods' image, given with --virt-v2v-image. */
const VIRT_V2V_IMAGE = 'registry.example/forklift-virt-v2v:test';

let kubeConfig: KubeConfig;
let client: Client;
/** Where the app finds the ova Providers' shares (`--ova-catalog-path`). */
let catalogRoot: string;
/** The ova Provider's share (`nfs.example:/exports/ova`) under the root: its catalog. */
let catalogPath: string;
let app: AppProcess;
const stop = new AbortController();
/** The catalog's VMs by name, as the inventory (the app's own reader) gives them. */
const inventoryVMs = new Map<string, InventoryVM>();
let ova: OvaSource;
let storageClass: string;
/** Conversion pods the PodJobSimulator keeps Running (a long virt-v2v run), as `namespace/vmID`. */
const held = new Set<string>();
/** Everything seen of a kind (the destination deletes DataVolumes, Secrets, … along the way), by UID, last version. */
const seen = {
  dataVolumes: new Map<string, DataVolume>(),
  pods: new Map<string, V1Pod>(),
  pvcs: new Map<string, V1PersistentVolumeClaim>(),
  pvs: new Map<string, V1PersistentVolume>(),
  secrets: new Map<string, V1Secret>(),
  configMaps: new Map<string, V1ConfigMap>(),
  jobs: new Map<string, V1Job>(),
};
const inNamespace = <T extends KubeObject>(m: Map<string, T>, ns: string) =>
  [...m.values()].filter((o) => o.metadata?.namespace === ns);

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  client = createClient(kubeConfig);
  await installCRDs(kubeConfig, [...forkliftCrds, ...kubevirtCrds]);
  storageClass = `sc-ova-${Date.now()}`;
  await client.create('storage.k8s.io/v1/storageclasses', {
    metadata: { name: storageClass },
    provisioner: 'example.com/none',
  });

  // 5 VMs: two .ova archives (VMware with 2 disks, VirtualBox) and two plain .ovf (Xen; a
  // VirtualSystemCollection of two), a minute old so the scan does not skip them as in copy.
  catalogRoot = await makeCatalogDir();
  catalogPath = join(catalogRoot, 'nfs.example/exports/ova');
  const disk = (name: string) => ({ name, content: new Uint8Array(512) });
  await writeCatalogFiles(
    catalogPath,
    {
      'vmware/web-01.ova': [
        { name: 'web-01.ovf', content: VMWARE_OVF },
        disk('web-01-disk1.vmdk'),
        disk('web-01-disk2.vmdk'),
      ],
      'ubuntu.ova': [{ name: 'ubuntu.ovf', content: VIRTUALBOX_OVF }, disk('ubuntu-disk001.vmdk')],
      'xen/xen-vm.ovf': XEN_OVF,
      'xen/xen-disk.vhd': new Uint8Array(512),
      'stack/nested/stack.ovf': COLLECTION_OVF,
    },
    Date.now() - 60_000,
  );
  const inventory = new OvaInventory({ catalogPath });
  for (const vm of await inventory.listVMs()) inventoryVMs.set(vm.name, vm);
  expect([...inventoryVMs.keys()].sort()).toEqual(['app', 'db', 'ubuntu', 'web-01', 'xen-vm']);
  ova = new OvaSource({ inventory });

  const factory = new SharedInformerFactory(kubeConfig, {});
  const sims = [
    new CdiSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
    new KubeVirtSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
    new PodJobSimulator({
      kubeConfig,
      informerFactory: factory,
      stepMs: 20,
      podHeld: (pod) => held.has(`${pod.metadata?.namespace}/${pod.metadata?.labels?.vmID ?? ''}`),
      jobFails: (job) =>
        job.spec?.template.spec?.containers[0]?.image === FAILING_HOOK_IMAGE
          ? HOOK_FAILURE
          : undefined,
    }),
  ];
  const record = <T extends KubeObject>(resource: string, into: Map<string, T>) => {
    // Objects as the informer has them (wire JSON), kept under the test's model types.
    const keep = (o: unknown) => into.set((o as T).metadata?.uid ?? '', o as T);
    factory.forResource<T>(resource).addEventHandler({ onAdd: keep, onUpdate: (_, o) => keep(o) });
  };
  record('cdi.kubevirt.io/v1beta1/datavolumes', seen.dataVolumes);
  record('pods', seen.pods);
  record('persistentvolumeclaims', seen.pvcs);
  record('persistentvolumes', seen.pvs);
  record('secrets', seen.secrets);
  record('configmaps', seen.configMaps);
  record('batch/v1/jobs', seen.jobs);
  for (const sim of sims) void sim.run(stop.signal);
  factory.start(stop.signal);

  app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
    args: [
      '--leader-elect',
      '--leader-election-namespace=ctrlkit-migration',
      '--metrics-addr=0',
      '--healthz-addr=0',
      `--ova-catalog-path=${catalogRoot}`,
      `--virt-v2v-image=${VIRT_V2V_IMAGE}`,
    ],
  });
});

afterAll(async () => {
  stop.abort();
  client?.close();
  await app?.stop();
});

const id = (name: string) => {
  const vm = inventoryVMs.get(name);
  if (vm === undefined) throw new Error(`no VM ${name} in the catalog`);
  return vm.id;
};
const trueTypes = (o: { conditions?: Array<{ type: string; status: string }> } | undefined) =>
  (o?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

/** A plan's namespace with the ova and host Providers, maps of every catalog network and disk, and two Hooks. */
async function scenario(prefix: string) {
  const namespace = await createTestNamespace(kubeConfig, `${prefix}-`);
  const target = await createTestNamespace(kubeConfig, `${prefix}-target-`);
  const fixture = new PlanFixture({ client: kubeConfig, namespace });
  const vms = [...inventoryVMs.values()];
  await fixture.createProvidersAndMaps({
    sourceName: 'ova',
    source: { type: 'ova', url: 'nfs.example:/exports/ova' },
    networks: [...new Set(vms.flatMap((v) => v.networks))],
    datastores: vms.flatMap((v) => v.disks).map((d) => d.datastore),
    storageClass,
  });
  await fixture.create('Hook', 'ok', {
    image: 'quay.io/konveyor/hook-runner:latest',
    playbook: btoa('- hosts: localhost\n  tasks: []\n'),
  });
  await fixture.create('Hook', 'bad', { image: FAILING_HOOK_IMAGE, deadline: 60 });
  const readPlan = () => fixture.read<Plan>('Plan', 'plan');
  const vmStatus = (p: Plan, name: string) =>
    p.status?.migration?.vms?.find((v) => v.id === id(name)) as VMStatus;
  const untilPlan = async (what: string, ok: (p: Plan) => boolean, timeoutMs = 60_000) => {
    let last: Plan | undefined;
    await waitFor(
      `${namespace}: ${what}`,
      async () => {
        last = await readPlan();
        return ok(last);
      },
      { timeoutMs },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; plan status: ${JSON.stringify(last?.status)}`);
    });
    return last as Plan;
  };
  /** Creates the plan, waits for Ready, starts a Migration; returns the Migration. */
  const migrate = async (spec: Omit<PlanFixtureSpec, 'targetNamespace'>) => {
    await fixture.createPlan('plan', { targetNamespace: target, ...spec });
    await untilPlan('plan Ready', (p) => trueTypes(p.status).includes('Ready'));
    await fixture.create('Migration', 'run-1', { plan: { name: 'plan' } });
    return fixture.read<Migration>('Migration', 'run-1');
  };
  const list = async <T>(gvr: typeof DV, selector: string) =>
    (
      (await client.list(resourceOf(gvr), {
        namespace: target,
        labelSelector: selector,
      })) as unknown as { items: T[] }
    ).items;
  return { namespace, target, fixture, migrate, readPlan, untilPlan, vmStatus, list };
}

// The scenarios are independent (a namespace pair each) and mostly wait on the controller's
// requeues, so they run at once, on the one controller.
describe.concurrent('OVA provider → KubeVirt, the built controller as the deploy/ ServiceAccount', () => {
  it('migrates a catalog of 5 VMs to Succeeded, creating what upstream creates', async () => {
    const t = await scenario('ova-all');
    const names = ['web-01', 'ubuntu', 'xen-vm', 'app', 'db'];
    const migration = await t.migrate({
      targetLabels: { team: 'blue' },
      vms: names.map((name) => ({
        id: id(name),
        ...(name === 'ubuntu' && { targetPowerState: 'on' }),
      })),
    });
    const p = await t.untilPlan('Succeeded', (p) => trueTypes(p.status).includes('Succeeded'));
    for (const name of names) {
      const vm = t.vmStatus(p, name);
      expect(trueTypes(vm), name).toEqual(['Succeeded']);
      expect(vm.pipeline.map((s) => s.name)).toEqual([
        'Initialize',
        'DiskAllocation',
        'ImageConversion',
        'DiskTransferV2v',
        'VirtualMachineCreation',
      ]);
      const capacity = (inventoryVMs.get(name)?.disks ?? []).reduce((n, d) => n + d.capacityMiB, 0);
      expect(vm.pipeline.find((s) => s.name === 'DiskTransferV2v')?.progress).toEqual({
        completed: capacity,
        total: capacity,
      });
    }
    const labels = (name: string) => ({
      migration: migration.metadata.uid,
      plan: p.metadata.uid,
      'plan-name': 'plan',
      'plan-namespace': t.namespace,
      vmID: id(name),
      resource: 'vm-config',
    });

    // DataVolumes: blank, one per disk, for virt-v2v to fill (deleted once the VM owns the PVCs).
    const dvs = inNamespace(seen.dataVolumes, t.target);
    expect(dvs).toHaveLength(6);
    for (const name of names) {
      const tasks = await ova.builder.tasks({ id: id(name) });
      const mine = dvs.filter((d) => d.metadata.labels?.vmID === id(name));
      expect(
        mine.map((d) => d.metadata.annotations?.['forklift.konveyor.io/disk-source']).sort(),
      ).toEqual(tasks.map((k) => k.name).sort());
      for (const dv of mine) {
        expect(dv.metadata.name).toMatch(new RegExp(`^plan-${id(name)}-[a-z0-9]{5}$`));
        expect(dv.metadata.labels).toEqual(labels(name));
        expect(dv.metadata.annotations).toMatchObject({
          ...labels(name),
          'cdi.kubevirt.io/storage.deleteAfterCompletion': 'false',
        });
        expect(dv.spec.source).toEqual({ blank: {} });
        const task = tasks.find(
          (k) => k.name === dv.metadata.annotations?.['forklift.konveyor.io/disk-source'],
        );
        expect(dv.spec.storage).toMatchObject({
          resources: { requests: { storage: `${task?.progress.total}Mi` } },
          storageClassName: storageClass,
        });
      }
    }
    expect(await t.list<DataVolume>(DV, `plan=${p.metadata.uid}`)).toEqual([]);

    // The conversion pods (kept after success, for their logs) on the NFS share of the Provider.
    const pods = (
      await client.list<V1Pod>('pods', {
        namespace: t.target,
        labelSelector: 'forklift.app=virt-v2v',
      })
    ).items;
    expect(pods.map((x) => x.metadata?.labels?.vmID).sort()).toEqual(names.map(id).sort());
    const diskPath: Record<string, string> = {
      'web-01': '/ova/vmware/web-01.ova',
      ubuntu: '/ova/ubuntu.ova',
      'xen-vm': '/ova/xen',
      app: '/ova/stack/nested',
      db: '/ova/stack/nested',
    };
    for (const name of names) {
      const pod = pods.find((x) => x.metadata?.labels?.vmID === id(name));
      expect(pod?.status?.phase).toBe('Succeeded');
      expect(pod?.metadata?.labels).toMatchObject({ ...labels(name), 'forklift.app': 'virt-v2v' });
      const container = pod?.spec?.containers[0];
      expect(container?.image).toBe(VIRT_V2V_IMAGE);
      expect(container?.env).toEqual([
        { name: 'V2V_vmName', value: name },
        { name: 'V2V_diskPath', value: diskPath[name] },
        { name: 'V2V_source', value: 'ova' },
      ]);
      const disks = inventoryVMs.get(name)?.disks.length ?? 0;
      expect(container?.volumeMounts?.map((m) => m.mountPath)).toEqual([
        ...Array.from({ length: disks }, (_, i) => `/mnt/disks/disk${i}`),
        '/ova',
      ]);
      const claim = pod?.spec?.volumes?.find((v) => v.name === 'store-pv')?.persistentVolumeClaim
        ?.claimName;
      const pvc = inNamespace(seen.pvcs, t.target).find((c) => c.metadata?.name === claim);
      expect(pvc?.metadata?.labels).toMatchObject({
        ova: 'nfs-pvc',
        'plan-name': 'plan',
        vmID: id(name),
      });
      const pv = [...seen.pvs.values()].find((v) => v.metadata?.name === pvc?.spec?.volumeName);
      expect(pv?.metadata?.labels).toMatchObject({
        ova: 'nfs-pv',
        'plan-name': 'plan',
        migration: 'run-1',
        vmID: id(name),
      });
      expect(pv?.spec?.nfs).toEqual({ server: 'nfs.example', path: '/exports/ova' });
    }

    // The VirtualMachines: the source's name, the labels, Halted (an OVA is off) unless asked on.
    const vms = await t.list<VirtualMachine>(VMS, `plan=${p.metadata.uid}`);
    expect(vms.map((v) => v.metadata.name).sort()).toEqual([...names].sort());
    const pvcs = (
      await client.list<V1PersistentVolumeClaim>('persistentvolumeclaims', { namespace: t.target })
    ).items;
    for (const vm of vms) {
      const name = vm.metadata.name ?? '';
      expect(vm.metadata.labels).toEqual(labels(name));
      expect(vm.spec.runStrategy).toBe(name === 'ubuntu' ? 'Always' : 'Halted');
      expect(vm.spec.template.metadata?.labels).toEqual({ team: 'blue', app: name });
      const owned = pvcs.filter((c) =>
        c.metadata?.ownerReferences?.some((o) => o.uid === vm.metadata.uid),
      );
      expect(owned).toHaveLength(inventoryVMs.get(name)?.disks.length ?? -1);
      for (const c of owned) {
        expect(c.metadata?.labels?.vmID).toBe(id(name));
        expect(c.metadata?.ownerReferences).toEqual([
          {
            apiVersion: 'kubevirt.io/v1',
            kind: 'VirtualMachine',
            name,
            uid: vm.metadata.uid,
            blockOwnerDeletion: true,
            controller: false,
          },
        ]);
      }
    }
    await waitFor('the VMs ready (the KubeVirt simulator)', async () =>
      (await t.list<VirtualMachine>(VMS, `plan=${p.metadata.uid}`)).every(
        (v) => v.status?.printableStatus === (v.metadata.name === 'ubuntu' ? 'Running' : 'Stopped'),
      ),
    );

    const status = await runBin('migrate', [
      'status',
      'plan',
      '-n',
      t.namespace,
      '--kubeconfig',
      testKubeconfigPath(),
    ]);
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Plan ${t.namespace}/plan: .*Ready.*Succeeded`));
    expect(status.stdout).toContain('VMs: 5, 5 Succeeded');
    for (const name of names) {
      const rows = lines.filter((l) => l.startsWith(`${name} `));
      expect(rows, name).toHaveLength(5);
      // VM, PHASE, STEP, STATUS, …: every step Completed.
      for (const r of rows) expect(r.split(/\s+/)[3], r).toBe('Completed');
    }
  });

  it('a failing PreHook or PostHook Job fails only its VM; the plan ends Failed', async () => {
    const t = await scenario('ova-hooks');
    await t.migrate({
      vms: [
        { id: id('web-01'), hooks: [{ step: 'PreHook', hook: { name: 'bad' } }] },
        { id: id('ubuntu'), hooks: [{ step: 'PostHook', hook: { name: 'bad' } }] },
        {
          id: id('db'),
          hooks: [
            { step: 'PreHook', hook: { name: 'ok' } },
            { step: 'PostHook', hook: { name: 'ok' } },
          ],
        },
      ],
    });
    const p = await t.untilPlan('Failed', (p) => trueTypes(p.status).includes('Failed'));
    expect(trueTypes(p.status)).not.toContain('Succeeded');
    const step = (name: string, step: string) =>
      t.vmStatus(p, name).pipeline.find((s) => s.name === step);
    expect(trueTypes(t.vmStatus(p, 'web-01'))).toEqual(['Failed']);
    expect(t.vmStatus(p, 'web-01').error?.reasons).toEqual([HOOK_FAILURE]);
    expect(step('web-01', 'PreHook')?.error?.reasons).toEqual([HOOK_FAILURE]);
    expect(trueTypes(t.vmStatus(p, 'ubuntu'))).toEqual(['Failed']);
    expect(step('ubuntu', 'PostHook')?.error?.reasons).toEqual([HOOK_FAILURE]);
    expect(step('ubuntu', 'VirtualMachineCreation')?.error).toBeUndefined();
    expect(trueTypes(t.vmStatus(p, 'db'))).toEqual(['Succeeded']);
    expect(step('db', 'PreHook')?.progress).toEqual({ completed: 1, total: 1 });
    expect(step('db', 'PostHook')?.progress).toEqual({ completed: 1, total: 1 });

    // The hooks ran as Jobs in the plan's namespace, labelled with the step and the VM.
    const jobs = inNamespace(seen.jobs, t.namespace).map((j) => [
      j.metadata?.labels?.vmID,
      j.metadata?.labels?.step,
      j.spec?.template.spec?.containers[0]?.image,
    ]);
    expect(jobs.sort()).toEqual(
      [
        [id('web-01'), 'PreHook', FAILING_HOOK_IMAGE],
        [id('ubuntu'), 'PostHook', FAILING_HOOK_IMAGE],
        [id('db'), 'PreHook', 'quay.io/konveyor/hook-runner:latest'],
        [id('db'), 'PostHook', 'quay.io/konveyor/hook-runner:latest'],
      ].sort(),
    );
    // A failed PreHook stops its VM before any disk is allocated; a failed PostHook keeps the VM.
    const dvVMs = new Set(
      inNamespace(seen.dataVolumes, t.target).map((d) => d.metadata.labels?.vmID),
    );
    expect(dvVMs).toEqual(new Set([id('ubuntu'), id('db')]));
    const vms = await t.list<VirtualMachine>(VMS, `plan=${p.metadata.uid}`);
    expect(vms.map((v) => v.metadata.name).sort()).toEqual(['db', 'ubuntu']);
  });

  it('canceling a VM removes its conversion pod, DataVolumes, Secret and ConfigMap; the others go on', async () => {
    const t = await scenario('ova-cancel');
    held.add(`${t.target}/${id('app')}`);
    // deleteVmOnFailMigration: a canceled VM's DataVolumes go too (upstream's cleanup).
    await t.migrate({
      deleteVmOnFailMigration: true,
      vms: ['app', 'db', 'xen-vm'].map((name) => ({ id: id(name) })),
    });
    const converting = async () =>
      (
        await client.list<V1Pod>('pods', {
          namespace: t.target,
          labelSelector: `forklift.app=virt-v2v,vmID=${id('app')}`,
        })
      ).items.some((x) => x.status?.phase === 'Running');
    await waitFor('app converting', converting);
    const selector = `vmID=${id('app')}`;
    const objects = async () => ({
      dataVolumes: (await t.list<DataVolume>(DV, selector)).length,
      pods: (await client.list<V1Pod>('pods', { namespace: t.target, labelSelector: selector }))
        .items.length,
      secrets: (
        await client.list<V1Secret>('secrets', { namespace: t.target, labelSelector: selector })
      ).items.length,
      configMaps: (
        await client.list<V1ConfigMap>('configmaps', {
          namespace: t.target,
          labelSelector: selector,
        })
      ).items.length,
      storeClaims: (
        await client.list<V1PersistentVolumeClaim>('persistentvolumeclaims', {
          namespace: t.target,
          labelSelector: `${selector},ova=nfs-pvc`,
        })
      ).items.filter((c) => c.metadata?.deletionTimestamp === undefined).length,
    });
    expect(await objects()).toEqual({
      dataVolumes: 1,
      pods: 1,
      secrets: 1,
      configMaps: 1,
      storeClaims: 1,
    });
    await client.patch(
      resourceOf(t.fixture.path('Migration')),
      'run-1',
      { spec: { cancel: [{ id: id('app') }] } },
      { namespace: t.namespace },
    );
    const p = await t.untilPlan('Succeeded', (p) => trueTypes(p.status).includes('Succeeded'));
    expect(trueTypes(t.vmStatus(p, 'app'))).toEqual(['Canceled']);
    expect(t.vmStatus(p, 'app').conditions?.find((c) => c.type === 'Canceled')?.reason).toBe(
      'UserRequested',
    );
    expect(trueTypes(t.vmStatus(p, 'db'))).toEqual(['Succeeded']);
    expect(trueTypes(t.vmStatus(p, 'xen-vm'))).toEqual(['Succeeded']);
    expect(await objects()).toEqual({
      dataVolumes: 0,
      pods: 0,
      secrets: 0,
      configMaps: 0,
      storeClaims: 0,
    });
    const vms = await t.list<VirtualMachine>(VMS, `plan=${p.metadata.uid}`);
    expect(vms.map((v) => v.metadata.name).sort()).toEqual(['db', 'xen-vm']);
  });

  it('deleting the Plan deletes its orphans and keeps what a VirtualMachine owns', async () => {
    const t = await scenario('ova-delete');
    held.add(`${t.target}/${id('db')}`);
    await t.migrate({ vms: ['db', 'xen-vm'].map((name) => ({ id: id(name) })) });
    await t.untilPlan('xen-vm Succeeded', (p) =>
      trueTypes(t.vmStatus(p, 'xen-vm')).includes('Succeeded'),
    );
    await waitFor('db converting', async () =>
      (
        await client.list<V1Pod>('pods', {
          namespace: t.target,
          labelSelector: `forklift.app=virt-v2v,vmID=${id('db')}`,
        })
      ).items.some((x) => x.status?.phase === 'Running'),
    );
    const labelled = `plan-name=plan,plan-namespace=${t.namespace}`;
    const live = <T extends KubeObject>(items: T[]) =>
      items.filter((o) => o.metadata?.deletionTimestamp === undefined);
    const left = async () => ({
      dataVolumes: (await t.list<DataVolume>(DV, labelled)).map((d) => d.metadata.labels?.vmID),
      pods: (
        await client.list<V1Pod>('pods', { namespace: t.target, labelSelector: labelled })
      ).items
        .map((x) => x.metadata?.labels?.vmID)
        .sort(),
      secrets: (
        await client.list<V1Secret>('secrets', { namespace: t.target, labelSelector: labelled })
      ).items.map((s) => s.metadata?.labels?.vmID),
      configMaps: (
        await client.list<V1ConfigMap>('configmaps', {
          namespace: t.target,
          labelSelector: labelled,
        })
      ).items.map((c) => c.metadata?.labels?.vmID),
      pvcs: live(
        (
          await client.list<V1PersistentVolumeClaim>('persistentvolumeclaims', {
            namespace: t.target,
            labelSelector: labelled,
          })
        ).items,
      )
        .map((c) => `${c.metadata?.labels?.vmID}${c.metadata?.labels?.ova ? '/nfs' : ''}`)
        .sort(),
      pvs: live(
        (await client.list<V1PersistentVolume>('persistentvolumes', { labelSelector: labelled }))
          .items,
      )
        .map((v) => v.metadata?.labels?.vmID)
        .sort(),
    });
    const [db, xen] = [id('db'), id('xen-vm')];
    expect(await left()).toEqual({
      dataVolumes: [db],
      pods: [db, xen].sort(), // xen-vm's pod is kept after its success, for its logs
      secrets: [db],
      configMaps: [db],
      pvcs: [db, `${db}/nfs`, xen].sort(),
      pvs: [db, xen].sort(), // the NFS PVs go with the plan (upstream: on archive)
    });
    await client.delete(resourceOf(t.fixture.path('Plan')), 'plan', { namespace: t.namespace });
    // The orphans go; xen-vm's VirtualMachine and the PVC it owns stay.
    const gone = {
      dataVolumes: [],
      pods: [],
      secrets: [],
      configMaps: [],
      pvcs: [xen],
      pvs: [],
    };
    await waitFor('the orphans deleted', left, {
      until: (l) => JSON.stringify(l) === JSON.stringify(gone),
    });
    const vms = await t.list<VirtualMachine>(VMS, labelled);
    expect(vms.map((v) => v.metadata.name)).toEqual(['xen-vm']);
  });
});

describe('after the scenarios', () => {
  it('stops on SIGTERM; the RBAC of deploy/ sufficed: no request was refused', async () => {
    // stop() sends SIGTERM and fails on a request the apiserver refused (403).
    expect(await app.stop()).toBe(0);
    expect(app.logs.filter((l) => /forbidden/i.test(l))).toEqual([]);
    expect(app.logs.some((l) => l.includes('"msg":"migration controller stopped"'))).toBe(true);
  });
});
