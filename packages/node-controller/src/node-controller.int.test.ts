// NodeController against a real apiserver: registration, status, and the node lease.
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { startAgent } from '../test/int-helpers.js';
import { NotifyingMemoryProvider } from '../test/test-harness.js';

it('a Node registers, is Ready, and renews its lease in kube-node-lease (owned by the Node)', async () => {
  const kubeConfig = testKubeConfig();
  const leases = kubeConfig.makeApiClient(CoordinationV1Api);
  const agent = await startAgent(kubeConfig, 'vk-int-node', new NotifyingMemoryProvider(), {
    node: { lease: { client: leases, leaseDurationSeconds: 40, renewIntervalMs: 500 } },
  });
  try {
    const node = await agent.core.readNode({ name: 'vk-int-node' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');

    let first: string | undefined;
    await waitFor('the lease', async () => {
      const lease = await leases.readNamespacedLease({
        name: 'vk-int-node',
        namespace: 'kube-node-lease',
      });
      first = String(lease.spec?.renewTime?.toISOString?.() ?? lease.spec?.renewTime);
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
      const lease = await leases.readNamespacedLease({
        name: 'vk-int-node',
        namespace: 'kube-node-lease',
      });
      return String(lease.spec?.renewTime?.toISOString?.() ?? lease.spec?.renewTime) !== first;
    });
  } finally {
    await agent.stop();
    await agent.core.deleteNode({ name: 'vk-int-node' });
  }
});
