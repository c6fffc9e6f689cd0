// Part 4: apps/migration-controller moves the VMs of an OVA catalog into KubeVirt: Forklift's
// Provider, NetworkMap, StorageMap, Plan and Migration, the guest conversion pod and CDI
// DataVolumes per VM, and a VirtualMachine at the end. No KubeVirt, CDI or kubelet runs on the
// demo's control plane, so @ctrlkit/plan-migration's simulators (in this process) stand in
// for them: they advance DataVolume imports, conversion pods and VM status.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { renderPlanStatus } from '@ctrlkit/migration-controller';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { kubevirtCrds } from '@ctrlkit/plan-migration/kubevirt';
import { OvaInventory } from '@ctrlkit/plan-migration/ova';
import {
  CdiSimulator,
  COLLECTION_OVF,
  KubeVirtSimulator,
  MALFORMED_OVF,
  PodJobSimulator,
  VIRTUALBOX_OVF,
  VMWARE_OVF,
  writeCatalogFiles,
  XEN_OVF,
} from '@ctrlkit/plan-migration/testing';
import { createClient } from '@ctrlkit/runtime/client';
import { SharedInformerFactory } from '@ctrlkit/runtime/informers';
import { binOf, startApp } from './apps.mjs';
import { print, say } from './say.mjs';

/** An OVA catalog as exporters write it (in `dir`): VMware and Xen `.ova` archives, VirtualBox and a multi-VM `.ovf`, and one broken file. */
async function writeCatalog(dir) {
  await mkdir(dir, { recursive: true });
  const disk = (name) => ({ name, content: new Uint8Array(512) });
  const thirtySecondsAgo = Date.now() - 60_000; // the scan skips files still being copied (< 30 s)
  await writeCatalogFiles(
    dir,
    {
      'web/web-01.ova': [
        { name: 'web-01.ovf', content: VMWARE_OVF },
        disk('web-01-disk1.vmdk'),
        disk('web-01-disk2.vmdk'),
      ],
      'xen/xen-vm.ova': [{ name: 'xen-vm.ovf', content: XEN_OVF }, disk('xen-disk.vhd')],
      'ubuntu/ubuntu.ovf': VIRTUALBOX_OVF,
      'stack/stack.ovf': COLLECTION_OVF,
      'broken/broken.ovf': MALFORMED_OVF,
    },
    thirtySecondsAgo,
  );
  return dir;
}

/** Runs a plan of every VM in the catalog (written under `workDir`) to the end; returns the running app. */
export async function migrationDemo(plane, workDir, outcomes) {
  const { kubeConfig } = plane;
  await installCRDs(kubeConfig, [...forkliftCrds, ...kubevirtCrds]);
  // The ova Provider's share (nfs.example:/exports/ova) where --ova-catalog-path has it:
  // <root>/<server>/<path>, one catalog per Provider.
  const catalogRoot = join(workDir, 'ova');
  const catalog = join(catalogRoot, 'nfs.example/exports/ova');
  await writeCatalog(catalog);
  const inventory = new OvaInventory({ catalogPath: catalog });
  const vms = await inventory.listVMs();
  say(`OVA catalog ${catalog}: ${vms.map((vm) => vm.name).join(', ')} (and one malformed file)`);

  const namespace = await createTestNamespace(kubeConfig, 'forklift-');
  const target = await createTestNamespace(kubeConfig, 'vms-');
  const stopSimulators = startSimulators(kubeConfig, target);
  const logPath = join(workDir, 'migration-controller.log');
  const app = startApp(
    binOf('@ctrlkit/migration-controller', 'ctrlkit-migration-controller'),
    [
      ...['--kubeconfig', plane.kubeconfigPath, '--ova-catalog-path', catalogRoot],
      ...['--metrics-addr', '0', '--healthz-addr', '0'],
    ],
    logPath,
  );
  say(`ctrlkit-migration-controller --ova-catalog-path ${catalogRoot} (log: ${logPath})`);
  const stopAll = async () => {
    const code = await app.stop();
    await stopSimulators();
    return code;
  };

  try {
    const client = createClient(kubeConfig, { program: { name: 'ctrlkit-demo' } });
    const forklift = forkliftApi(client, namespace);
    await createPlan(client, forklift, inventory, vms, target);
    const plan = await followPlan(forklift);
    print(`\n${renderPlanStatus(plan)}`);
    await reportPlan(client, plan, vms, target, outcomes);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { stop: stopAll };
}

/**
 * Runs the simulators of CDI, KubeVirt and a kubelet in `target`; returns what stops them.
 * They act in the target namespace only: the virtual node's pods elsewhere have a kubelet
 * (the virtual kubelet), and kube-controller-manager runs the Jobs.
 */
function startSimulators(kubeConfig, target) {
  const stop = new AbortController();
  const factory = new SharedInformerFactory(kubeConfig, { namespace: target });
  const simulators = [
    new CdiSimulator({ kubeConfig, informerFactory: factory }),
    new KubeVirtSimulator({ kubeConfig, informerFactory: factory }),
    new PodJobSimulator({ kubeConfig, informerFactory: factory, jobs: false }),
  ];
  const simulated = simulators.map((simulator) => simulator.run(stop.signal));
  factory.start(stop.signal);
  say(
    `simulators of CDI, KubeVirt and a kubelet running in ${target} (the cluster has none of them)`,
  );
  return async () => {
    stop.abort();
    await Promise.allSettled(simulated);
  };
}

/** Forklift's resources in `namespace`: `create(kind, name, spec)` and `read(kind, name)`. */
function forkliftApi(client, namespace) {
  const resource = (kind) => ({ group: GROUP, version: VERSION, resource: PLURALS[kind] });
  return {
    create: (kind, name, spec) =>
      client.create(
        resource(kind),
        { apiVersion: API_VERSION, kind, metadata: { name }, spec },
        { namespace },
      ),
    read: (kind, name) => client.get(resource(kind), name, { namespace }),
  };
}

/** The conditions of `object` with `status`. */
const conditions = (object, status = 'True') =>
  (object.status?.conditions ?? []).filter((c) => c.status === status);
/** True when `object` has the condition `type` True. */
const has = (object, type) => conditions(object).some((c) => c.type === type);

/** Creates the Providers, maps and the Plan move-all of `vms` into `target`, and its Migration once the Plan is Ready. */
async function createPlan(client, { create, read }, inventory, vms, target) {
  await client.create('storage.k8s.io/v1/storageclasses', {
    metadata: { name: 'standard' },
    provisioner: 'example.com/demo',
  });
  await create('Provider', 'ova', { type: 'ova', url: 'nfs.example:/exports/ova' });
  await create('Provider', 'host', { type: 'openshift' });
  await waitFor('the ova Provider Ready', async () => has(await read('Provider', 'ova'), 'Ready'));
  for (const c of conditions(await read('Provider', 'ova'))) {
    say(`  Provider ova: ${c.type}${c.category === 'Warn' ? ` (Warn: ${c.message})` : ''}`);
  }

  const pair = { source: { name: 'ova' }, destination: { name: 'host' } };
  const networks = await inventory.listNetworks();
  const disks = await inventory.listDisks();
  await create('NetworkMap', 'net', {
    provider: pair,
    map: networks.map((n) => ({ source: { id: n.id }, destination: { type: 'pod' } })),
  });
  await create('StorageMap', 'storage', {
    provider: pair,
    map: disks.map((d) => ({ source: { id: d.id }, destination: { storageClass: 'standard' } })),
  });
  await create('Plan', 'move-all', {
    provider: pair,
    targetNamespace: target,
    targetPowerState: 'on',
    map: { network: { name: 'net' }, storage: { name: 'storage' } },
    vms: vms.map((vm) => ({ id: vm.id })),
  });
  await waitFor('the Plan Ready', async () => has(await read('Plan', 'move-all'), 'Ready'));
  say(`Plan move-all Ready: ${vms.length} VMs → namespace ${target}; create Migration run-1`);
  await create('Migration', 'run-1', { plan: { name: 'move-all' } });
}

/** Prints each VM's phase as it changes until the Plan Succeeded or Failed; returns the Plan. */
async function followPlan({ read }) {
  const phases = new Map();
  let plan;
  await waitFor(
    'the Plan Succeeded or Failed',
    async () => {
      plan = await read('Plan', 'move-all');
      const moved = new Map(); // phase -> VMs that reached it since the last poll
      for (const vm of plan.status?.migration?.vms ?? []) {
        if (phases.get(vm.id) === vm.phase) continue;
        phases.set(vm.id, vm.phase);
        moved.set(vm.phase, [...(moved.get(vm.phase) ?? []), vm.name]);
      }
      for (const [phase, names] of moved) say(`  ${phase.padEnd(24)} ${names.join(', ')}`);
      return has(plan, 'Succeeded') || has(plan, 'Failed');
    },
    { timeoutMs: 180_000 },
  );
  return plan;
}

/** Prints the VirtualMachines made in `target` and records the outcome. */
async function reportPlan(client, plan, vms, target, outcomes) {
  const vmsCreated = await client.list('kubevirt.io/v1/virtualmachines', { namespace: target });
  for (const vm of vmsCreated.items) {
    say(
      `  VirtualMachine ${target}/${vm.metadata.name}: runStrategy ${vm.spec.runStrategy}, ` +
        `${vm.status?.printableStatus ?? 'no status'}, ${vm.spec.template?.spec?.volumes?.length ?? 0} volumes`,
    );
  }
  const succeeded = (plan.status?.migration?.vms ?? []).filter((vm) =>
    (vm.conditions ?? []).some((c) => c.type === 'Succeeded' && c.status === 'True'),
  );
  outcomes.push({
    what: 'migration',
    ok: has(plan, 'Succeeded') && vmsCreated.items.length === vms.length,
    detail: `Plan move-all ${has(plan, 'Succeeded') ? 'Succeeded' : 'Failed'}: ${succeeded.length}/${vms.length} VMs migrated, ${vmsCreated.items.length} VirtualMachines created`,
  });
}
