// The kubelet API through the apiserver's node proxy (no client certificate), as
// `kubectl get --raw /api/v1/nodes/N/proxy/pods` and `kubectl top` reach it; the built binary
// runs as deploy/'s ServiceAccount.
import { appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

/** client-node hands back JSON answers already parsed, other answers as text. */
const json = (answer: unknown) => (typeof answer === 'string' ? JSON.parse(answer) : answer);

it('/pods, /runningpods/, /stats/summary and /metrics/resource answer through /api/v1/nodes/N/proxy; a repeated Warning is counted', async () => {
  const port = await freePort();
  const app = await startApp(appPackage('@ctrlkit/virtual-kubelet', import.meta.url), {
    args: [
      '--nodename',
      'vk-proxy',
      '--listen-port',
      String(port),
      '--metrics-addr',
      '0',
      '--healthz-addr',
      '0',
    ],
  });
  try {
    const core = testKubeConfig().makeApiClient(CoreV1Api);
    const node = await waitFor('the node registered', () => core.readNode({ name: 'vk-proxy' }));
    const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    expect(ip).toBeDefined();
    expect(ip).not.toMatch(/^127\./);
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(port);

    await core.createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: 'proxied' },
        spec: { nodeName: 'vk-proxy', containers: [{ name: 'c', image: 'i' }] },
      },
    });
    await waitFor(
      'the pod proxied Running',
      async () =>
        (await core.readNamespacedPod({ namespace: 'default', name: 'proxied' })).status?.phase ===
        'Running',
    );
    const proxy = (path: string) => core.connectGetNodeProxyWithPath({ name: 'vk-proxy', path });
    const pods = json(await proxy('pods'));
    expect(pods.kind).toBe('PodList');
    expect(pods.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toContain(
      'proxied',
    );
    expect(json(await proxy('runningpods/')).kind).toBe('PodList');
    expect(json(await proxy('stats/summary')).node.nodeName).toBe('vk-proxy');
    expect(await proxy('metrics/resource')).toContain(
      'pod_memory_working_set_bytes{namespace="default",pod="proxied"}',
    );
    await core.deleteNamespacedPod({
      namespace: 'default',
      name: 'proxied',
      gracePeriodSeconds: 0,
    });

    // A pod whose env names a missing ConfigMap: each retry of its sync records the same
    // Warning, which the event correlator turns into a patch of the Event's count.
    await core.createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: 'no-config' },
        spec: {
          nodeName: 'vk-proxy',
          containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: { name: 'absent' } }] }],
        },
      },
    });
    const event = await waitFor(
      'a repeated MandatoryConfigMapNotFound event',
      async () =>
        (
          await core.listNamespacedEvent({
            namespace: 'default',
            fieldSelector: 'involvedObject.name=no-config,reason=MandatoryConfigMapNotFound',
          })
        ).items[0],
      { until: (e) => (e?.count ?? 0) >= 2 },
    );
    expect(event?.message).toBe('configmap "absent" not found');
    await core.deleteNamespacedPod({
      namespace: 'default',
      name: 'no-config',
      gracePeriodSeconds: 0,
    });
  } finally {
    expect(await app.stop()).toBe(0);
  }
});
