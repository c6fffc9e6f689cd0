import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1StorageClass } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import { API_VERSION, forkliftCrds } from '../crds.js';
import { PlanFixture } from './plan-fixture.js';

beforeAll(async () => {
  await installCRDs(testKubeConfig(), [...forkliftCrds]);
});

describe('PlanFixture', () => {
  it('creates the source and host Providers, net and sto between them, and a Plan on them', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'fixture-');
    const fixture = new PlanFixture({ client: kubeConfig, namespace });
    const storageClass = `sc-${namespace}`;
    await fixture.createStorageClass(storageClass);
    const sc = await createClient(kubeConfig).get<V1StorageClass>(
      'storage.k8s.io/v1/storageclasses',
      storageClass,
    );
    expect(sc.provisioner).toBe('example.com/none');

    await fixture.createProvidersAndMaps({
      sourceName: 'ova',
      source: { type: 'ova', url: 'nfs.example:/exports/ova' },
      networks: ['n-1', 'n-2'],
      datastores: ['ds-a'],
      storageClass,
    });
    await fixture.createPlan('plan', { targetNamespace: 'target', vms: [{ id: 'vm-0' }] });

    const providers = await fixture.list<Provider>('Provider');
    expect(providers.map((p) => [p.metadata.name, p.spec]).sort()).toEqual([
      ['host', { type: 'openshift' }],
      ['ova', { type: 'ova', url: 'nfs.example:/exports/ova' }],
    ]);
    const pair = { source: { name: 'ova' }, destination: { name: 'host' } };
    const net = await fixture.read<NetworkMap>('NetworkMap', 'net');
    expect(net.apiVersion).toBe(API_VERSION);
    expect(net.spec).toEqual({
      provider: pair,
      map: [
        { source: { id: 'n-1' }, destination: { type: 'pod' } },
        { source: { id: 'n-2' }, destination: { type: 'pod' } },
      ],
    });
    const sto = await fixture.read<StorageMap>('StorageMap', 'sto');
    expect(sto.spec).toEqual({
      provider: pair,
      map: [{ source: { id: 'ds-a' }, destination: { storageClass } }],
    });
    const plan = await fixture.read<Plan>('Plan', 'plan');
    expect(plan.spec).toEqual({
      provider: pair,
      map: { network: { name: 'net' }, storage: { name: 'sto' } },
      targetNamespace: 'target',
      vms: [{ id: 'vm-0' }],
    });
    expect(fixture.path('Plan')).toEqual({
      group: 'forklift.ctrlkit.dev',
      version: 'v1beta1',
      plural: 'plans',
      namespace,
    });
  });

  it('defaults: source `src`, network net-1, datastore ds-1', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'fixture-');
    const fixture = new PlanFixture({ client: kubeConfig, namespace });
    await fixture.createProvidersAndMaps({ source: { type: 'simulated' }, storageClass: 'x' });
    await fixture.createPlan('plan', { targetNamespace: 't', vms: [{ name: 'vm-1' }] });
    const net = await fixture.read<NetworkMap>('NetworkMap', 'net');
    expect(net.spec.map).toEqual([{ source: { id: 'net-1' }, destination: { type: 'pod' } }]);
    const sto = await fixture.read<StorageMap>('StorageMap', 'sto');
    expect(sto.spec.map).toEqual([{ source: { id: 'ds-1' }, destination: { storageClass: 'x' } }]);
    const plan = await fixture.read<Plan>('Plan', 'plan');
    expect(plan.spec.provider).toEqual({ source: { name: 'src' }, destination: { name: 'host' } });
  });

  it('ready: each Provider and map gets Ready and observedGeneration 1, as its controller writes them', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'fixture-');
    const fixture = new PlanFixture({ client: kubeConfig, namespace });
    await fixture.createProvidersAndMaps({
      source: { type: 'simulated' },
      storageClass: 'x',
      ready: true,
    });
    const objects = [
      ...(await fixture.list<Provider>('Provider')),
      ...(await fixture.list<NetworkMap>('NetworkMap')),
      ...(await fixture.list<StorageMap>('StorageMap')),
    ];
    expect(objects.map((o) => o.metadata.name).sort()).toEqual(['host', 'net', 'src', 'sto']);
    for (const o of objects) {
      expect(o.status?.observedGeneration).toBe(1);
      expect(o.status?.conditions?.map((c) => [c.type, c.status, c.category])).toEqual([
        ['Ready', 'True', 'Required'],
      ]);
    }
  });
});
