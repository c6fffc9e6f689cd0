// The apiserver restarted mid-run: every pod still converges (own control plane, as it is restarted).
import { waitFor } from '@ctrlkit/core/testing';
import { noopLogger, startControlPlane } from '@ctrlkit/envtest';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { startAgent } from '../test/int-helpers.js';
import { NotifyingMemoryProvider } from '../test/test-harness.js';

it('pods created before and after an apiserver restart all reach Running, and deletes still finish', async () => {
  const plane = await startControlPlane({ logger: noopLogger });
  try {
    const provider = new NotifyingMemoryProvider();
    const agent = await startAgent(plane.kubeConfig, 'vk-restart', provider);
    const { client } = agent;
    const pod = (name: string): Wire<V1Pod> => ({
      metadata: { name },
      spec: { nodeName: 'vk-restart', containers: [{ name: 'c', image: 'i' }] },
    });
    try {
      const before = Array.from({ length: 20 }, (_, i) => `before-${i}`);
      await Promise.all(before.map((n) => client.create('pods', pod(n), { namespace: 'default' })));
      await plane.restartApiServer();
      const after = Array.from({ length: 20 }, (_, i) => `after-${i}`);
      await Promise.all(after.map((n) => client.create('pods', pod(n), { namespace: 'default' })));
      await waitFor(
        '40 running pods',
        async () =>
          (await client.list<V1Pod>('pods', { namespace: 'default' })).items.filter(
            (p) => p.status?.phase === 'Running',
          ).length === 40,
        { timeoutMs: 120_000 },
      );
      await Promise.all(
        [...before, ...after].map((n) => client.delete('pods', n, { namespace: 'default' })),
      );
      await waitFor(
        'no pod left',
        async () => (await client.list<V1Pod>('pods', { namespace: 'default' })).items.length === 0,
        { timeoutMs: 120_000 },
      );
      expect(provider.pods.size).toBe(0);
    } finally {
      await agent.stop();
    }
  } finally {
    await plane.stop();
  }
});
