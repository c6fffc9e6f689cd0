import { describe, expect, it } from 'vitest';
import { drainLabel, jsonPointerSegment, shardLabel } from './ring-labels.js';
import { shardKey } from './shard-key.js';

describe('shardKey', () => {
  it("is the object's namespace/name, or name when cluster-scoped", () => {
    expect(shardKey({ metadata: { namespace: 'ns', name: 'web' } })).toBe('ns/web');
    expect(shardKey({ metadata: { name: 'node-1' } })).toBe('node-1');
  });

  it("is its controller owner's key, so dependents follow their owner", () => {
    const dependent = {
      metadata: {
        namespace: 'ns',
        name: 'web-abc12',
        ownerReferences: [
          { name: 'other', controller: false },
          { name: 'web', controller: true },
        ],
      },
    };
    expect(shardKey(dependent)).toBe(shardKey({ metadata: { namespace: 'ns', name: 'web' } }));
  });
});

describe('ring labels', () => {
  it('name the ring in the label keys, escaped for JSON patches', () => {
    expect(shardLabel('web')).toBe('shard.ctrlkit.io/web');
    expect(drainLabel('web')).toBe('drain.ctrlkit.io/web');
    expect(jsonPointerSegment('shard.ctrlkit.io/web')).toBe('shard.ctrlkit.io~1web');
  });
});
