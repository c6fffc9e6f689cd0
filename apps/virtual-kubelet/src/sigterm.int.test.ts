// SIGTERM to the app's process mid-run: it exits 0 without deleting any pod or its Node, the
// lease is left to expire, and a restarted app brings every pod (also those created while it
// was down) back to Running.
import { type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Lease, V1Node, V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);

/** The built binary as deploy/'s ServiceAccount. */
function startVirtualKubelet(nodeName: string, port: number): Promise<AppProcess> {
  return startApp(app, {
    args: [
      '--nodename',
      nodeName,
      '--metrics-addr',
      '0',
      '--healthz-addr',
      '0',
      '--internal-ip',
      '10.9.8.7',
      '--pod-sync-workers',
      '4',
      '--listen-port',
      String(port),
    ],
  });
}

it('SIGTERM mid-run loses and deletes no pod; the restarted app runs them all', async () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig);
  const namespace = await createTestNamespace(kubeConfig, 'vk-sigterm-');
  const nodeName = 'vk-sigterm';
  const pod = (name: string): V1Pod => ({
    metadata: { name },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
  });
  const running = async (n: number) =>
    (await client.list<V1Pod>('pods', { namespace })).items.filter(
      (p) => p.status?.phase === 'Running',
    ).length === n;

  const port = await freePort();
  const first = await startVirtualKubelet(nodeName, port);
  try {
    await waitFor(
      'the Node registered',
      async () => (await client.get<V1Node>('nodes', nodeName)).metadata?.name === nodeName,
    );
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.create('pods', pod(`a-${i}`), { namespace })),
    );
    await waitFor('20 running pods', () => running(20));
    // more pods arrive, and SIGTERM comes while they are being handled
    const more = Promise.all(
      Array.from({ length: 20 }, (_, i) => client.create('pods', pod(`b-${i}`), { namespace })),
    );
    first.child.kill('SIGTERM');
    await more;
    expect(await first.exited).toBe(0);
  } finally {
    await first.stop();
  }
  expect(first.logs.some((l) => l.includes('"msg":"virtual kubelet stopped"'))).toBe(true);

  const pods = (await client.list<V1Pod>('pods', { namespace })).items;
  expect(pods).toHaveLength(40);
  expect(pods.every((p) => p.metadata?.deletionTimestamp === undefined)).toBe(true);
  expect((await client.get<V1Node>('nodes', nodeName)).metadata?.name).toBe(nodeName);
  const lease = await client.get<V1Lease>('coordination.k8s.io/v1/leases', nodeName, {
    namespace: 'kube-node-lease',
  });
  expect(lease.spec?.holderIdentity).toBe(nodeName);

  const second = await startVirtualKubelet(nodeName, port);
  try {
    await waitFor('40 running pods', () => running(40), { timeoutMs: 90_000 });
  } finally {
    expect(await second.stop()).toBe(0);
  }
  const left = (await client.list<V1Pod>('pods', { namespace })).items;
  await Promise.all(
    left.map((p) =>
      client.delete('pods', p.metadata?.name ?? '', { namespace, gracePeriodSeconds: 0 }),
    ),
  );
  await client.delete('nodes', nodeName);
  client.close();
});
