// The kubelet API through the apiserver's node proxy (no client certificate), as
// `kubectl get --raw /api/v1/nodes/N/proxy/pods` and `kubectl top` reach it.
import { createServer } from 'node:net';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { parseFlags } from './flags.js';
import { buildVirtualKubelet } from './run.js';

/** client-node hands back JSON answers already parsed, other answers as text. */
const json = (answer: unknown) => (typeof answer === 'string' ? JSON.parse(answer) : answer);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('/pods, /runningpods/, /stats/summary and /metrics/resource answer through /api/v1/nodes/N/proxy', async () => {
  const port = await freePort();
  const flags = parseFlags([
    '--kubeconfig',
    testKubeconfigPath(),
    '--nodename',
    'vk-proxy',
    '--listen-port',
    String(port),
    '--metrics-addr',
    '0',
    '--healthz-addr',
    '0',
  ]);
  const { manager, nodeController, podController } = buildVirtualKubelet(flags, noopLogger);
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  try {
    await Promise.all([nodeController.ready, podController.ready]);
    const core = manager.kubeConfig.makeApiClient(CoreV1Api);
    const node = await core.readNode({ name: 'vk-proxy' });
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
  } finally {
    stop.abort();
    await running;
  }
});
