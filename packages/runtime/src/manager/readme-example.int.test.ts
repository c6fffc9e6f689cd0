// The manager example of README.md, run against the test control plane: the kubeConfig
// comes from envtest, the endpoints bind free ports, the Lease and the cache live in a test
// namespace (other tests of the run fill the cluster with ConfigMaps), and the test stops
// the manager instead of a signal.
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { Controller, Manager } from '../index.js';

it('runs the manager README example', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'readme-');
  const stop = new AbortController();

  const manager = new Manager({
    kubeConfig,
    userAgent: 'configmap-stamper/1.0.0',
    leaderElection: { leaseName: 'configmap-stamper', leaseNamespace: namespace },
    metricsBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    cache: { namespace },
  });
  const core = manager.makeApiClient(CoreV1Api);
  const configMaps = manager.informerFactory.forResource<V1ConfigMap>('v1/configmaps');
  const recorder = manager.getEventRecorder('configmap-stamper');
  manager.add(
    new Controller({
      name: 'stamper',
      reconcile: async (key) => {
        const cm = configMaps.indexer.getByKey(key);
        if (cm === undefined || cm.metadata?.labels?.stamped === 'true') return;
        await core.patchNamespacedConfigMap({
          namespace: cm.metadata!.namespace!,
          name: cm.metadata!.name!,
          body: [{ op: 'add', path: '/metadata/labels', value: { stamped: 'true' } }],
        });
        recorder.event(cm, 'Normal', 'Stamped', 'labelled stamped=true');
      },
    }).watch(configMaps),
  );
  manager.addReadyzCheck('api', async () => void (await core.getAPIResources()));
  const running = manager.start(stop.signal);

  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'web' } } });
  await waitFor(
    'the ConfigMap stamped',
    async () =>
      (await core.readNamespacedConfigMap({ namespace, name: 'web' })).metadata?.labels?.stamped ===
      'true',
    { timeoutMs: 60_000 },
  );
  const ready = await fetch(`http://${manager.healthProbeAddress}/readyz?verbose`);
  expect(await ready.text()).toBe('[+]api ok\n[+]informers ok\nhealthz check passed\n');
  stop.abort();
  await running;
  const events = await core.listNamespacedEvent({ namespace });
  expect(events.items.map((e) => [e.reason, e.involvedObject.name])).toContainEqual([
    'Stamped',
    'web',
  ]);
});
