import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomApi, coreApi, customApi } from '../internal/kube-api.js';
import {
  kubevirtCrds,
  SNAPSHOT_GROUP,
  SNAPSHOT_VERSION,
  VIRTUAL_MACHINES,
  type VirtualMachine,
} from './crds.js';
import { VirtualMachineControllerRefManager } from './vm-controller-ref-manager.js';
import {
  volumeSnapshotClassInformer,
  volumeSnapshotInformer,
} from './volume-snapshot-informers.js';

let kubeConfig: KubeConfig;
let custom: CustomApi;
const stop = new AbortController();

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  custom = customApi(createClient(kubeConfig));
  await installCRDs(kubeConfig, [...kubevirtCrds]);
});

afterAll(() => stop.abort());

const vm = (namespace: string, name: string, labels: Record<string, string>) =>
  custom.createNamespacedCustomObject({
    group: VIRTUAL_MACHINES.group,
    version: VIRTUAL_MACHINES.version,
    plural: VIRTUAL_MACHINES.resource,
    namespace,
    body: {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name, labels },
      spec: { runStrategy: 'Halted', template: { spec: {} } },
    },
  }) as Promise<VirtualMachine>;

describe('KubeVirt helpers against a real apiserver', () => {
  it('VirtualMachineControllerRefManager adopts matching orphan VMs and leaves the others', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'vmref-');
    const owner = await coreApi(createClient(kubeConfig)).createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'pool' } },
    });
    const vms = [
      await vm(namespace, 'a', { pool: 'p' }),
      await vm(namespace, 'b', { pool: 'other' }),
    ];
    const manager = new VirtualMachineControllerRefManager({
      controller: owner,
      controllerKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      selector: { matchLabels: { pool: 'p' } },
      canAdopt: () => undefined,
      kubeConfig,
    });
    const claimed = await manager.claimVirtualMachines(vms);
    expect(claimed.map((v) => v.metadata.name)).toEqual(['a']);
    const a = (await custom.getNamespacedCustomObject({
      group: VIRTUAL_MACHINES.group,
      version: VIRTUAL_MACHINES.version,
      plural: VIRTUAL_MACHINES.resource,
      namespace,
      name: 'a',
    })) as VirtualMachine;
    expect(a.metadata.ownerReferences).toMatchObject([
      { kind: 'ConfigMap', name: 'pool', uid: owner.metadata?.uid, controller: true },
    ]);
  });

  it('the VolumeSnapshot and VolumeSnapshotClass informers list and watch their objects', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'snap-');
    const factory = new SharedInformerFactory(kubeConfig, {});
    const snapshots = volumeSnapshotInformer(factory, { namespace });
    const classes = volumeSnapshotClassInformer(factory);
    await createClient(kubeConfig).create(
      { group: SNAPSHOT_GROUP, version: SNAPSHOT_VERSION, resource: 'volumesnapshotclasses' },
      {
        apiVersion: 'snapshot.storage.k8s.io/v1',
        kind: 'VolumeSnapshotClass',
        metadata: { name: `csi-${namespace}` },
        driver: 'hostpath.csi.k8s.io',
        deletionPolicy: 'Delete',
      },
    );
    factory.start(stop.signal);
    await custom.createNamespacedCustomObject({
      group: SNAPSHOT_GROUP,
      version: SNAPSHOT_VERSION,
      plural: 'volumesnapshots',
      namespace,
      body: {
        apiVersion: 'snapshot.storage.k8s.io/v1',
        kind: 'VolumeSnapshot',
        metadata: { name: 'snap' },
        spec: {
          source: { persistentVolumeClaimName: 'disk' },
          volumeSnapshotClassName: `csi-${namespace}`,
        },
      },
    });
    const seen = await new Promise<string>((resolve) => {
      snapshots.addEventHandler({
        onAdd: (s) => resolve(s.spec.source.persistentVolumeClaimName ?? ''),
      });
    });
    expect(seen).toBe('disk');
    await expect
      .poll(() => classes.indexer.getByKey(`csi-${namespace}`)?.driver)
      .toBe('hostpath.csi.k8s.io');
  });
});
