// updateNodeStatus against a real apiserver: the strategic merge patch keeps what other
// writers put into the node status (an address, images, a condition) and removes only what
// this controller applied before and no longer wants.
import { realClock } from '@ctrlkit/core';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { nodesClient } from './kube-clients.js';
import { updateNodeStatus } from './node-controller.js';

const NAME = 'vk-int-status-patch';

function desired(
  addresses: Array<{ type: string; address: string }>,
  conditions: string[],
): Wire<V1Node> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: NAME },
    status: {
      addresses,
      conditions: conditions.map((type) => ({ type, status: 'True', reason: `${type}Reason` })),
      capacity: { cpu: '4', pods: '10' },
    },
  };
}

it('an address, images and a condition another writer added survive our status update; what we dropped goes', async () => {
  const client = createClient(testKubeConfig());
  const nodes = nodesClient(client);
  const signal = new AbortController().signal;
  await client.create('nodes', { metadata: { name: NAME } });
  try {
    await updateNodeStatus(
      nodes,
      desired(
        [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'Hostname', address: NAME },
        ],
        ['Ready', 'Mine'],
      ),
      realClock,
      signal,
    );

    // Another writer (a cloud controller, an image reporter) adds to the status.
    await client.patch(
      'nodes',
      NAME,
      {
        status: {
          addresses: [{ type: 'ExternalIP', address: '203.0.113.7' }],
          images: [{ names: ['registry.example/other:1'], sizeBytes: 1234 }],
          conditions: [{ type: 'TheirCondition', status: 'False' }],
        },
      },
      { subresource: 'status', type: 'strategic' },
    );

    const node = await updateNodeStatus(
      nodes,
      desired([{ type: 'InternalIP', address: '10.0.0.2' }], ['Ready']),
      realClock,
      signal,
    );
    const addresses = Object.fromEntries(
      (node.status?.addresses ?? []).map((a) => [a.type, a.address]),
    );
    expect(addresses).toEqual({ InternalIP: '10.0.0.2', ExternalIP: '203.0.113.7' });
    expect(node.status?.images).toEqual([{ names: ['registry.example/other:1'], sizeBytes: 1234 }]);
    expect((node.status?.conditions ?? []).map((c) => c.type).sort()).toEqual([
      'Ready',
      'TheirCondition',
    ]);
    expect(node.status?.capacity).toEqual({ cpu: '4', pods: '10' });

    const read = await client.get<V1Node>('nodes', NAME);
    expect(read.status?.addresses).toEqual(node.status?.addresses);
  } finally {
    await client.delete('nodes', NAME);
  }
});
