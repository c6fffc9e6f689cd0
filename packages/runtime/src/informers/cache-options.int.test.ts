import { createClient, type KubeObject } from '@ctrlkit/client';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { SharedInformerFactory } from './shared-informer-factory.js';

it('caches per controller-runtime cache options: namespace, selectors, per-resource transform, metadata only', async () => {
  const kubeConfig = testKubeConfig();
  const core = createClient(kubeConfig);
  const namespace = await createTestNamespace(kubeConfig, 'cache-');
  const elsewhere = await createTestNamespace(kubeConfig, 'cache-');
  for (const [ns, name, app] of [
    [namespace, 'web', 'web'],
    [namespace, 'db', 'db'],
    [elsewhere, 'web', 'web'],
  ] as const) {
    await core.create(
      'configmaps',
      { metadata: { name, labels: { app } }, data: { big: 'x'.repeat(100) } },
      { namespace: ns },
    );
    await core.create(
      'secrets',
      { metadata: { name, labels: { app } }, stringData: { password: 'secret' } },
      { namespace: ns },
    );
  }
  const factory = new SharedInformerFactory(kubeConfig, {
    namespace,
    labelSelector: 'app=web',
    byResource: {
      'v1/configmaps': {
        transform: (obj: KubeObject) => {
          const cm = obj as V1ConfigMap;
          return { ...cm, data: { size: String(cm.data?.big?.length ?? 0) } };
        },
      },
      'v1/secrets': { metadataOnly: true, labelSelector: '' },
    },
  });
  const configMaps = factory.forResource<V1ConfigMap>('v1/configmaps');
  const secrets = factory.forResource('v1/secrets');
  const stop = new AbortController();
  factory.start(stop.signal);
  await factory.waitForCacheSync(stop.signal);

  expect(
    configMaps.indexer.list().map((cm) => [cm.metadata?.namespace, cm.metadata?.name, cm.data]),
  ).toEqual([[namespace, 'web', { size: '100' }]]);
  const cachedSecrets = secrets.indexer.list() as Array<KubeObject & { data?: unknown }>;
  expect(cachedSecrets.map((s) => s.metadata?.name).sort()).toEqual(['db', 'web']);
  expect(
    cachedSecrets.every((s) => s.kind === 'PartialObjectMetadata' && s.data === undefined),
  ).toBe(true);
  stop.abort();
  await factory.shutdown();
  core.close();
});
