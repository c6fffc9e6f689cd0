// NodeController against a real apiserver: registration, status, and the node lease.
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { startAgent } from '../test/int-helpers.js';
import { NotifyingMemoryProvider } from '../test/test-harness.js';

it('a Node registers, is Ready, and renews its lease in kube-node-lease (owned by the Node)', async () => {
  const kubeConfig = testKubeConfig();
  const leases = createClient(kubeConfig);
  const agent = await startAgent(kubeConfig, 'vk-int-node', new NotifyingMemoryProvider(), {
    node: { lease: { client: leases, leaseDurationSeconds: 40, renewIntervalMs: 500 } },
  });
  try {
    const node = await agent.client.get<V1Node>('nodes', 'vk-int-node');
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');

    let first: string | undefined;
    await waitFor('the lease', async () => {
      const lease = await leases.get<V1Lease>('coordination.k8s.io/v1/leases', 'vk-int-node', {
        namespace: 'kube-node-lease',
      });
      first = lease.spec?.renewTime;
      expect(lease.spec?.holderIdentity).toBe('vk-int-node');
      expect(lease.spec?.leaseDurationSeconds).toBe(40);
      expect(lease.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'Node',
        name: 'vk-int-node',
        uid: node.metadata?.uid,
      });
      return true;
    });
    await waitFor('a renewal', async () => {
      const lease = await leases.get<V1Lease>('coordination.k8s.io/v1/leases', 'vk-int-node', {
        namespace: 'kube-node-lease',
      });
      return lease.spec?.renewTime !== first;
    });
  } finally {
    await agent.stop();
    await agent.client.delete('nodes', 'vk-int-node');
  }
});
