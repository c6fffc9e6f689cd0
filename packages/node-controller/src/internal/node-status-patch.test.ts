import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LAST_APPLIED_NODE_STATUS_ANNOTATION } from '../node-status-annotations.js';
import { nodeStatusPatch } from './node-status-patch.js';

const server = (lastStatus: unknown): Wire<V1Node> => ({
  metadata: {
    name: 'n',
    resourceVersion: '7',
    annotations: { [LAST_APPLIED_NODE_STATUS_ANNOTATION]: JSON.stringify(lastStatus) },
  },
});

describe('nodeStatusPatch (strategic, three-way)', () => {
  it('merges addresses and conditions by type: dropped ones get a delete directive, dropped fields null', () => {
    const patch = nodeStatusPatch(
      server({
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'Hostname', address: 'n' },
        ],
        conditions: [{ type: 'Ready', status: 'True', message: 'old' }],
        images: [{ names: ['a'] }],
      }),
      {
        metadata: { name: 'n' },
        status: {
          addresses: [{ type: 'InternalIP', address: '10.0.0.2' }],
          conditions: [{ type: 'Ready', status: 'False' }],
        },
      },
    );
    expect(patch.status).toEqual({
      addresses: [
        { type: 'InternalIP', address: '10.0.0.2' },
        { type: 'Hostname', $patch: 'delete' },
      ],
      conditions: [{ type: 'Ready', status: 'False', message: null }],
      images: null,
    });
    expect((patch.metadata as { resourceVersion?: string }).resourceVersion).toBe('7');
  });

  it('sends atomic lists whole and leaves lists it never set alone', () => {
    const patch = nodeStatusPatch(server({}), {
      status: { images: [{ names: ['b'], sizeBytes: 1 }] },
    });
    expect(patch.status).toEqual({ images: [{ names: ['b'], sizeBytes: 1 }] });
  });
});
