// Forklift's own manifests, unchanged: with --api-group=forklift.konveyor.io the built
// controller (as deploy/'s ServiceAccount) serves Forklift's group from the package's
// crds/forklift.konveyor.io.yaml, and Providers, maps, a Hook, a Plan and a Migration written
// as Forklift's documentation writes them (YAML, apiVersion forklift.konveyor.io/v1beta1) run
// an OVA VM to Succeeded on the KubeVirt destination (CDI, KubeVirt and the Job controller are
// the package's simulators); ctrlkit-migrate reads the plan with the same flag.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { FORKLIFT_GROUP, forkliftCrdsOf, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import type { Plan } from '@ctrlkit/plan-migration/api';
import { kubevirtCrds } from '@ctrlkit/plan-migration/kubevirt';
import { OvaInventory } from '@ctrlkit/plan-migration/ova';
import {
  CdiSimulator,
  KubeVirtSimulator,
  makeCatalogDir,
  PodJobSimulator,
  VMWARE_OVF,
  writeCatalogFiles,
} from '@ctrlkit/plan-migration/testing';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import { discoverResource } from '@ctrlkit/runtime/informers';
import { type KubernetesObject, loadAllYaml, type V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { runBin } from '../test/app-process.js';

const here = dirname(fileURLToPath(import.meta.url));

it("serves forklift.konveyor.io: Forklift's documented manifests run a plan to Succeeded", async () => {
  const kubeConfig = testKubeConfig();
  // The CRDs as the package ships them for Forklift's group.
  const packaged = loadAllYaml(
    await readFile(
      join(here, '../node_modules/@ctrlkit/plan-migration/crds/forklift.konveyor.io.yaml'),
      'utf8',
    ),
  );
  expect(packaged.map((c) => c.metadata.name)).toEqual(
    forkliftCrdsOf(FORKLIFT_GROUP).map((c) => c.metadata?.name),
  );
  await installCRDs(kubeConfig, [...forkliftCrdsOf(FORKLIFT_GROUP), ...kubevirtCrds]);
  const stopSimulators = new AbortController();
  const factory = new SharedInformerFactory(kubeConfig, {});
  for (const sim of [
    new CdiSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
    new KubeVirtSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
    new PodJobSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
  ]) {
    void sim.run(stopSimulators.signal);
  }
  factory.start(stopSimulators.signal);
  const namespace = await createTestNamespace(kubeConfig, 'konveyor-');
  const target = await createTestNamespace(kubeConfig, 'konveyor-target-');
  const storageClass = `sc-${namespace}`;
  const client = createClient(kubeConfig);
  await client.create('storage.k8s.io/v1/storageclasses', {
    metadata: { name: storageClass },
    provisioner: 'example.com/none',
  });
  /** Creates `object` where its apiVersion and kind say (discovery), as kubectl create does. */
  const createObject = async (object: KubernetesObject) => {
    const { group, version, resource } = await discoverResource(
      client,
      object.apiVersion ?? '',
      object.kind ?? '',
    );
    await client.create({ group, version, resource }, object);
  };
  // The ova Provider's share, nfs.example.com:/exports/ova, where --ova-catalog-path has it.
  const catalogRoot = await makeCatalogDir();
  const catalogPath = join(catalogRoot, 'nfs.example.com/exports/ova');
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
  if (vm === undefined) throw new Error('the catalog has no VM');

  // As Forklift's documentation writes them (only names, the NFS URL and ids filled in).
  const manifests = `
apiVersion: forklift.konveyor.io/v1beta1
kind: Provider
metadata:
  name: ova-source
  namespace: ${namespace}
spec:
  type: ova
  url: nfs.example.com:/exports/ova
---
apiVersion: forklift.konveyor.io/v1beta1
kind: Provider
metadata:
  name: host
  namespace: ${namespace}
spec:
  type: openshift
  url: ""
---
apiVersion: forklift.konveyor.io/v1beta1
kind: NetworkMap
metadata:
  name: ova-network-map
  namespace: ${namespace}
spec:
  map:
${vm.networks.map((n) => `    - destination:\n        type: pod\n      source:\n        id: ${n}`).join('\n')}
  provider:
    source:
      name: ova-source
      namespace: ${namespace}
    destination:
      name: host
      namespace: ${namespace}
---
apiVersion: forklift.konveyor.io/v1beta1
kind: StorageMap
metadata:
  name: ova-storage-map
  namespace: ${namespace}
spec:
  map:
${[...new Set(vm.disks.map((d) => d.datastore))].map((d) => `    - destination:\n        storageClass: ${storageClass}\n        accessMode: ReadWriteOnce\n      source:\n        id: ${d}`).join('\n')}
  provider:
    source:
      name: ova-source
      namespace: ${namespace}
    destination:
      name: host
      namespace: ${namespace}
---
apiVersion: forklift.konveyor.io/v1beta1
kind: Hook
metadata:
  name: ova-hook
  namespace: ${namespace}
spec:
  image: quay.io/konveyor/hook-runner
  playbook: |
    LS0tCi0gbmFtZTogTWFpbgogIGhvc3RzOiBsb2NhbGhvc3QKICB0YXNrczoKICAtIG5hbWU6IExvYWQgUGxhbgogICAgaW5jbHVkZV92YXJzOgogICAgICBmaWxlOiAiL3RtcC9ob29rL3BsYW4ueW1sIgogICAgICBuYW1lOiBwbGFuCiAgLSBuYW1lOiBMb2FkIFdvcmtsb2FkCiAgICBpbmNsdWRlX3ZhcnM6CiAgICAgIGZpbGU6ICIvdG1wL2hvb2svd29ya2xvYWQueW1sIgogICAgICBuYW1lOiB3b3JrbG9hZAoK
---
apiVersion: forklift.konveyor.io/v1beta1
kind: Plan
metadata:
  name: ova-plan
  namespace: ${namespace}
spec:
  warm: false
  provider:
    source:
      name: ova-source
      namespace: ${namespace}
    destination:
      name: host
      namespace: ${namespace}
  map:
    network:
      name: ova-network-map
      namespace: ${namespace}
    storage:
      name: ova-storage-map
      namespace: ${namespace}
  targetNamespace: ${target}
  vms:
    - name: ${vm.name}
      hooks:
        - hook:
            namespace: ${namespace}
            name: ova-hook
          step: PreHook
`;
  for (const object of loadAllYaml(manifests) as KubernetesObject[]) await createObject(object);

  const app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
    args: [
      '--api-group=forklift.konveyor.io',
      '--leader-elect',
      '--leader-election-namespace=ctrlkit-migration',
      '--metrics-addr=0',
      '--healthz-addr=0',
      `--ova-catalog-path=${catalogRoot}`,
    ],
  });
  try {
    const readPlan = async () =>
      (await client.get(
        { group: FORKLIFT_GROUP, version: VERSION, resource: PLURALS.Plan },
        'ova-plan',
        { namespace },
      )) as Plan;
    const has = (p: Plan, type: string) =>
      (p.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
    let last: Plan | undefined;
    // The hook's ConfigMap, seen while the plan runs (the cleanup deletes it at the end).
    let hookConfig: Wire<V1ConfigMap> | undefined;
    const untilPlan = (what: string, type: string) =>
      waitFor(
        what,
        async () => {
          hookConfig ??= (
            await client.list<V1ConfigMap>('configmaps', {
              namespace,
              labelSelector: 'resource=hook-config',
            })
          ).items[0];
          last = await readPlan();
          return has(last, type);
        },
        { timeoutMs: 60_000 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}; plan status: ${JSON.stringify(last?.status)}`);
      });
    await untilPlan('the plan Ready', 'Ready');
    await createObject({
      apiVersion: 'forklift.konveyor.io/v1beta1',
      kind: 'Migration',
      metadata: { name: 'ova-migration', namespace },
      spec: { plan: { name: 'ova-plan', namespace } },
    } as KubernetesObject);
    await untilPlan('the plan Succeeded', 'Succeeded');
    expect(last?.status?.migration?.vms?.map((v) => v.id)).toEqual([vm.id]);
    expect(last?.status?.migration?.vms?.[0]?.pipeline?.map((p) => p.name)).toContain('PreHook');
    // The hook's workload is the OVA VM in Forklift's shape (item: hooks get the inventory).
    const workload = JSON.parse(hookConfig?.data?.['workload.yml'] ?? '{}');
    expect(workload.selflink).toMatch(new RegExp(`^providers/ova/[^/]+/workloads/${vm.id}$`));
    expect(workload.vm.vm1.vm0).toMatchObject({ id: vm.id, name: vm.name });
    expect(workload.vm).toMatchObject({ cpucount: vm.cpuCount, memorymb: vm.memoryMiB });
    expect(JSON.parse(hookConfig?.data?.['plan.yml'] ?? '{}').targetnamespace).toBe(target);

    const status = await runBin('migrate', [
      'status',
      'ova-plan',
      '-n',
      namespace,
      '--kubeconfig',
      testKubeconfigPath(),
      '--api-group',
      'forklift.konveyor.io',
    ]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(vm.name);
    // In our own group the plan does not exist.
    const ours = await runBin('migrate', [
      'status',
      'ova-plan',
      '-n',
      namespace,
      '--kubeconfig',
      testKubeconfigPath(),
    ]);
    expect(ours.code).toBe(1);
  } finally {
    stopSimulators.abort();
    expect(await app.stop()).toBe(0);
  }
});
