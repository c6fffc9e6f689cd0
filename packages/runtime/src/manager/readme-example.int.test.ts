// The manager example of README.md, run against the test control plane: the kubeConfig
// comes from envtest, the endpoints bind free ports, the Lease and the cache live in a test
// namespace (other tests of the run fill the cluster with ConfigMaps), and the test stops
// the manager instead of a signal.
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { CoreV1Event, V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { Controller, Manager } from '../index.js';

it('runs the manager README example', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'readme-');
  const stop = new AbortController();

  const manager = new Manager({
    kubeConfig,
    program: { name: 'configmap-stamper', version: '1.0.0' },
    leaderElection: { leaseName: 'configmap-stamper', leaseNamespace: namespace },
    metricsBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    cache: { namespace },
  });
  const { client } = manager;
  const configMaps = manager.informerFactory.forResource<V1ConfigMap>('v1/configmaps');
  const recorder = manager.getEventRecorder('configmap-stamper');
  manager.add(
    new Controller({
      name: 'stamper',
      reconcile: async (key) => {
        const cm = configMaps.indexer.getByKey(key);
        if (cm === undefined || cm.metadata?.labels?.stamped === 'true') return;
        await client.patch(
          'configmaps',
          cm.metadata!.name!,
          [{ op: 'add', path: '/metadata/labels', value: { stamped: 'true' } }],
          { namespace: cm.metadata!.namespace!, type: 'json' },
        );
        recorder.event(cm, 'Normal', 'Stamped', 'labelled stamped=true');
      },
    }).watch(configMaps),
  );
  manager.addReadyzCheck('api', async () => void (await client.requestJson('GET', '/api/v1')));
  const running = manager.start(stop.signal);

  await client.create('configmaps', { metadata: { name: 'web' } }, { namespace });
  await waitFor(
    'the ConfigMap stamped',
    async () =>
      (await client.get<V1ConfigMap>('configmaps', 'web', { namespace })).metadata?.labels
        ?.stamped === 'true',
    { timeoutMs: 60_000 },
  );
  const ready = await fetch(`http://${manager.healthProbeAddress}/readyz?verbose`);
  expect(await ready.text()).toBe('[+]api ok\n[+]informers ok\nhealthz check passed\n');
  stop.abort();
  await running;
  const events = await client.list<CoreV1Event>('events', { namespace });
  expect(events.items.map((e) => [e.reason, e.involvedObject.name])).toContainEqual([
    'Stamped',
    'web',
  ]);
});
