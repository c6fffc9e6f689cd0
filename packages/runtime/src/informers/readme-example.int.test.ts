// The informers example of README.md, run against the test control plane (kubeConfig from
// envtest instead of loadFromDefault, and console.log captured).

import { createClient } from '@ctrlkit/client';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { deletionHandlingMetaNamespaceKeyFunc, SharedInformerFactory } from '../informers.js';

it('runs the informers README example', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'readme-');
  const client = createClient(kubeConfig);
  await client.create(
    'configmaps',
    { metadata: { name: 'web', labels: { app: 'web' } } },
    { namespace },
  );
  client.close();
  const printed: unknown[][] = [];
  const console = { log: (...args: unknown[]) => printed.push(args) };

  const factory = new SharedInformerFactory(kubeConfig, { defaultResyncPeriodMs: 600_000 });
  const configMaps = factory.forResource<V1ConfigMap>('configmaps');
  configMaps.addEventHandler({
    onAdd: (cm) => console.log('added', cm.metadata?.name),
    onUpdate: (_old, cm) => console.log('updated', cm.metadata?.name),
    onDelete: (cm) => console.log('deleted', deletionHandlingMetaNamespaceKeyFunc(cm)),
  });
  const stop = new AbortController();
  factory.start(stop.signal);
  await factory.waitForCacheSync(stop.signal);
  console.log(factory.lister<V1ConfigMap>('configmaps').namespace(namespace).list('app=web'));

  expect(printed).toContainEqual(['added', 'web']);
  const listed = printed.at(-1)?.[0] as V1ConfigMap[];
  expect(listed.map((cm) => cm.metadata?.name)).toEqual(['web']);
  stop.abort();
  await factory.shutdown();
});
