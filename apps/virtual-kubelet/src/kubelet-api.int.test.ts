// The kubelet API through the apiserver's node proxy (no client certificate), as
// `kubectl get --raw /api/v1/nodes/N/proxy/pods` and `kubectl top` reach it; the built binary
// runs as deploy/'s ServiceAccount.
import { appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { CoreV1Event, V1Node, V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

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
  const client = createClient(testKubeConfig());
  try {
    const node = await waitFor('the node registered', () =>
      client.get<V1Node>('nodes', 'vk-proxy'),
    );
    const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    expect(ip).toBeDefined();
    expect(ip).not.toMatch(/^127\./);
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(port);

    await client.create<V1Pod>('pods', {
      metadata: { name: 'proxied', namespace: 'default' },
      spec: { nodeName: 'vk-proxy', containers: [{ name: 'c', image: 'i' }] },
    });
    await waitFor(
      'the pod proxied Running',
      async () =>
        (await client.get<V1Pod>('pods', 'proxied', { namespace: 'default' })).status?.phase ===
        'Running',
    );
    const proxy = async (path: string) =>
      (await client.getBody(`/api/v1/nodes/vk-proxy/proxy/${path}`, {}, '*/*')).toString();
    const pods = JSON.parse(await proxy('pods'));
    expect(pods.kind).toBe('PodList');
    expect(pods.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toContain(
      'proxied',
    );
    expect(JSON.parse(await proxy('runningpods/')).kind).toBe('PodList');
    expect(JSON.parse(await proxy('stats/summary')).node.nodeName).toBe('vk-proxy');
    expect(await proxy('metrics/resource')).toContain(
      'pod_memory_working_set_bytes{namespace="default",pod="proxied"}',
    );
    await client.delete('pods', 'proxied', { namespace: 'default', gracePeriodSeconds: 0 });

    // A pod whose env names a missing ConfigMap: each retry of its sync records the same
    // Warning, which the event correlator turns into a patch of the Event's count.
    await client.create<V1Pod>('pods', {
      metadata: { name: 'no-config', namespace: 'default' },
      spec: {
        nodeName: 'vk-proxy',
        containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: { name: 'absent' } }] }],
      },
    });
    const event = await waitFor(
      'a repeated MandatoryConfigMapNotFound event',
      async () =>
        (
          await client.list<CoreV1Event>('events', {
            namespace: 'default',
            fieldSelector: 'involvedObject.name=no-config,reason=MandatoryConfigMapNotFound',
          })
        ).items[0],
      { until: (e) => (e?.count ?? 0) >= 2 },
    );
    expect(event?.message).toBe('configmap "absent" not found');
    await client.delete('pods', 'no-config', { namespace: 'default', gracePeriodSeconds: 0 });
  } finally {
    client.close();
    expect(await app.stop()).toBe(0);
  }
});
