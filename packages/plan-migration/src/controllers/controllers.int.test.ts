// The Provider, map, Hook and Migration controllers against a real apiserver, on one
// informer factory with the PlanController, as the app runs them: each one's Ready and
// invalid paths, and a plan on the simulated source run to Succeeded with no Ready set by hand.

import { realClock } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition } from '../api/condition.js';
import type { NewCondition } from '../conditions.js';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from '../crds.js';
import { type CustomApi, customApi } from '../internal/kube-api.js';
import { PlanController } from '../plan-controller.js';
import { SimulatedSource } from '../simulated-source.js';
import { HookController } from './hook-controller.js';
import { NetworkMapController, StorageMapController } from './map-controller.js';
import { MigrationController } from './migration-controller.js';
import { ProviderController } from './provider-controller.js';

type Resource = {
  metadata: { generation?: number; uid?: string };
  status?: { conditions?: Condition[]; observedGeneration?: number; phase?: string };
};

let kubeConfig: KubeConfig;
let custom: CustomApi;
const stop = new AbortController();
/** What the `ova` test inspector reports; a test changes it to see re-inspection. */
let ovaCatalog: NewCondition[] = [];
const source = new SimulatedSource({
  clock: realClock,
  copyRateMiBPerSecond: 2000,
  vms: Array.from({ length: 3 }, (_, i) => ({
    id: `vm-${i}`,
    name: i === 2 ? 'vm-1' : `vm-${i}`,
    powerState: 'On' as const,
    networks: ['net-1'],
    disks: [{ id: 'disk-0', capacityMiB: 100, datastore: 'ds-1' }],
  })),
});
let running: Promise<unknown>;

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  custom = customApi(createClient(kubeConfig));
  await installCRDs(kubeConfig, [...forkliftCrds]);
  const informerFactory = new SharedInformerFactory(kubeConfig, {});
  const adapter = { inventory: source, client: source, builder: source };
  const controllers = [
    new ProviderController({
      kubeConfig,
      informerFactory,
      inspectors: { ova: () => ovaCatalog },
      readyIntervalMs: 200,
      notReadyIntervalMs: 200,
    }),
    new NetworkMapController({ kubeConfig, informerFactory }),
    new StorageMapController({ kubeConfig, informerFactory }),
    new HookController({ kubeConfig, informerFactory }),
    new MigrationController({
      kubeConfig,
      informerFactory,
      inventory: (p) => (p.spec.type === 'simulated' ? source : undefined),
    }),
    new PlanController({
      kubeConfig,
      informerFactory,
      sources: (p) =>
        p.spec.type === 'simulated'
          ? { ...adapter, validator: (plan, maps) => source.validator(plan, maps) }
          : undefined,
      pollIntervalMs: 100,
    }),
  ];
  informerFactory.start(stop.signal);
  running = Promise.all(controllers.map((c) => c.run(stop.signal)));
});

afterAll(async () => {
  stop.abort();
  await running;
});

const create = (kind: keyof typeof PLURALS, namespace: string, name: string, spec: object) =>
  custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURALS[kind],
    namespace,
    body: { apiVersion: API_VERSION, kind, metadata: { name }, spec },
  });
const get = (kind: keyof typeof PLURALS, namespace: string, name: string) =>
  custom.getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURALS[kind],
    namespace,
    name,
  }) as Promise<Resource>;
const conditionsOf = (r: Resource) =>
  (r.status?.conditions ?? [])
    .filter((c) => c.status === 'True')
    .map((c) => [c.type, c.reason].filter(Boolean).join('/'))
    .sort();

/** Waits until the object's generation is observed and its conditions (type/reason, sorted) satisfy `ok`. */
function until(
  kind: keyof typeof PLURALS,
  namespace: string,
  name: string,
  ok: (types: string[]) => boolean,
  timeoutMs = 30_000,
): Promise<Resource> {
  return waitFor(`${kind} ${namespace}/${name}`, () => get(kind, namespace, name), {
    until: (r) => r.status?.observedGeneration === r.metadata.generation && ok(conditionsOf(r)),
    timeoutMs,
  });
}
const is =
  (...expected: string[]) =>
  (types: string[]) =>
    JSON.stringify(types) === JSON.stringify([...expected].sort());

async function providers(namespace: string): Promise<void> {
  await create('Provider', namespace, 'src', { type: 'simulated' });
  await create('Provider', namespace, 'host', { type: 'openshift' });
}

describe('ProviderController', () => {
  it('simulated and the host cluster are Ready (phase Ready); an unsupported type gets ProviderTypeNotSupported', async () => {
    const ns = await createTestNamespace(kubeConfig, 'prov-');
    await providers(ns);
    await create('Provider', ns, 'vs', { type: 'vsphere', url: 'https://vcenter/sdk' });
    await create('Provider', ns, 'remote', { type: 'openshift', url: 'https://api.remote:6443' });
    for (const name of ['src', 'host']) {
      const p = await until('Provider', ns, name, is('Ready', 'Validated/Completed'));
      expect(p.status?.phase).toBe('Ready');
    }
    const vs = await until('Provider', ns, 'vs', is('ProviderTypeNotSupported/NotSupported'));
    expect(vs.status?.phase).toBe('ValidationFailed');
    await until('Provider', ns, 'remote', is('UrlNotValid/NotSupported'));
  });

  it('re-inspects periodically: a catalog change shows without any edit of the Provider', async () => {
    const ns = await createTestNamespace(kubeConfig, 'prov-');
    ovaCatalog = [
      {
        type: 'InventoryNotFound',
        status: 'True',
        reason: 'NotFound',
        category: 'Critical',
        message: 'no OVA in the catalog',
      },
    ];
    await create('Provider', ns, 'ova', { type: 'ova', url: 'nfs.example.com:/ova' });
    await until('Provider', ns, 'ova', is('InventoryNotFound/NotFound'));
    ovaCatalog = [{ type: 'InventoryCreated', status: 'True', category: 'Advisory' }];
    const p = await until(
      'Provider',
      ns,
      'ova',
      is('InventoryCreated', 'Ready', 'Validated/Completed'),
    );
    expect(p.status?.phase).toBe('Ready');
  });
});

describe('NetworkMapController and StorageMapController', () => {
  it('a missing provider gives SourceProviderNotValid/NotFound; once it exists and is Ready, the map is Ready', async () => {
    const ns = await createTestNamespace(kubeConfig, 'map-');
    await create('Provider', ns, 'host', { type: 'openshift' });
    await create('NetworkMap', ns, 'net', {
      provider: { source: { name: 'src' }, destination: { name: 'host' } },
      map: [
        { source: { id: 'net-1' }, destination: { type: 'pod' } },
        { source: { id: 'net-2' }, destination: { type: 'multus', namespace: ns, name: 'nad' } },
      ],
    });
    await until('NetworkMap', ns, 'net', is('SourceProviderNotValid/NotFound'));
    await create('Provider', ns, 'src', { type: 'simulated' });
    await until('NetworkMap', ns, 'net', is('Ready'));
  });

  it('a multus destination without a namespace is DestinationNetworkNotValid/Ambiguous', async () => {
    const ns = await createTestNamespace(kubeConfig, 'map-');
    await providers(ns);
    await create('NetworkMap', ns, 'net', {
      provider: { source: { name: 'src' }, destination: { name: 'host' } },
      map: [{ source: { id: 'net-1' }, destination: { type: 'multus', name: 'nad' } }],
    });
    const m = await until('NetworkMap', ns, 'net', is('DestinationNetworkNotValid/Ambiguous'));
    expect(m.status?.conditions?.[0]?.items).toEqual(['/nad']);
  });

  it('a missing storage class gives DestinationStorageNotValid/NotFound; creating it makes the map Ready', async () => {
    const ns = await createTestNamespace(kubeConfig, 'map-');
    await providers(ns);
    const sc = `sc-${ns}`;
    await create('StorageMap', ns, 'sto', {
      provider: { source: { name: 'src' }, destination: { name: 'host' } },
      map: [{ source: { id: 'ds-1' }, destination: { storageClass: sc } }],
    });
    const m = await until('StorageMap', ns, 'sto', is('DestinationStorageNotValid/NotFound'));
    expect(m.status?.conditions?.[0]?.items).toEqual([sc]);
    await createClient(kubeConfig).create('storage.k8s.io/v1/storageclasses', {
      metadata: { name: sc },
      provisioner: 'example.com/none',
    });
    await until('StorageMap', ns, 'sto', is('Ready'));
  });

  it('a non-openshift destination is DestinationProviderNotValid/TypeNotValid', async () => {
    const ns = await createTestNamespace(kubeConfig, 'map-');
    await providers(ns);
    await create('StorageMap', ns, 'sto', {
      provider: { source: { name: 'src' }, destination: { name: 'src' } },
      map: [{ source: { id: 'ds-1' }, destination: { storageClass: 'x' } }],
    });
    await until('StorageMap', ns, 'sto', is('DestinationProviderNotValid/TypeNotValid'));
  });
});

describe('HookController', () => {
  it('an image with a base64 playbook is Ready; a bad image and playbook get InvalidImage and InvalidPlaybook', async () => {
    const ns = await createTestNamespace(kubeConfig, 'hook-');
    await create('Hook', ns, 'good', {
      image: 'quay.io/kubev2v/hook-runner:latest',
      playbook: Buffer.from('- hosts: localhost\n').toString('base64'),
    });
    await create('Hook', ns, 'bad', { image: 'Not An Image', playbook: 'not base64!' });
    await until('Hook', ns, 'good', is('Ready'));
    await until('Hook', ns, 'bad', is('InvalidImage/NotSet', 'InvalidPlaybook/DataError'));
  });
});

describe('MigrationController with the PlanController', () => {
  it('a Migration of a missing plan is PlanNotValid/NotFound', async () => {
    const ns = await createTestNamespace(kubeConfig, 'mig-');
    await create('Migration', ns, 'm', { plan: { name: 'nope' } });
    await until('Migration', ns, 'm', is('PlanNotValid/NotFound'));
  });

  it('a plan runs to Succeeded with every Ready from the controllers; the Migration is owned by its Plan; cancel refs that do not resolve are warned about', async () => {
    const ns = await createTestNamespace(kubeConfig, 'mig-');
    const target = await createTestNamespace(kubeConfig, 'target-');
    await providers(ns);
    const sc = `sc-${ns}`;
    await createClient(kubeConfig).create('storage.k8s.io/v1/storageclasses', {
      metadata: { name: sc },
      provisioner: 'example.com/none',
    });
    const pair = { source: { name: 'src' }, destination: { name: 'host' } };
    await create('Plan', ns, 'plan', {
      provider: pair,
      targetNamespace: target,
      map: { network: { name: 'net' }, storage: { name: 'sto' } },
      vms: [{ id: 'vm-0' }, { id: 'vm-1' }],
    });
    await until('Plan', ns, 'plan', (t) => t.includes('NetworkMapRefNotValid/NotFound'));
    // The plan is not Ready (its maps do not exist yet): the Migration says so.
    await create('Migration', ns, 'm', {
      plan: { name: 'plan' },
      cancel: [{ id: 'not-in-inventory' }, { name: 'vm-1' }],
    });
    await until('Migration', ns, 'm', is('PlanNotReady/NotFound'));
    await create('NetworkMap', ns, 'net', {
      provider: pair,
      map: [{ source: { id: 'net-1' }, destination: { type: 'pod' } }],
    });
    await create('StorageMap', ns, 'sto', {
      provider: pair,
      map: [{ source: { id: 'ds-1' }, destination: { storageClass: sc } }],
    });
    const plan = await until('Plan', ns, 'plan', (t) => t.includes('Succeeded'), 60_000);
    expect(conditionsOf(plan)).not.toContain('Executing');
    const m = await until('Migration', ns, 'm', (t) => t.includes('Succeeded'));
    expect(conditionsOf(m)).toEqual(
      expect.arrayContaining([
        'Ready',
        'Succeeded',
        'VMNotFound/NotFound',
        'VMNotUnique/Ambiguous',
      ]),
    );
    const owners = (m.metadata as { ownerReferences?: Array<Record<string, unknown>> })
      .ownerReferences;
    expect(owners).toEqual([
      expect.objectContaining({
        apiVersion: API_VERSION,
        kind: 'Plan',
        name: 'plan',
        uid: plan.metadata.uid,
        controller: true,
      }),
    ]);
    expect(m.status?.conditions?.find((c) => c.type === 'VMNotFound')?.items).toEqual([
      " id:not-in-inventory name:'' ",
    ]);
  });
});
