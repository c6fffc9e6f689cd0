import type { Wire } from '@ctrlkit/client';
import type { V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { RingMembership } from './ring-membership.js';

function lease(shard: string, holder: string, renewTime: string, seconds = 10): Wire<V1Lease> {
  return {
    metadata: { name: shard, annotations: { 'ctrlkit.io/ring-resources': 'v1/configmaps' } },
    spec: { holderIdentity: holder, renewTime, leaseDurationSeconds: seconds },
  };
}

describe('RingMembership', () => {
  it('counts a shard alive while its Lease changes within its duration, by the local clock', () => {
    const ring = new RingMembership();
    ring.observe(lease('a', 'a', 't1'), 0);
    ring.observe(lease('b', 'b', 't1'), 0);
    expect(ring.alive(9_999)).toEqual(['a', 'b']);
    ring.observe(lease('a', 'a', 't2'), 9_000);
    // b has not changed for its 10 s: dead; a renewed at 9 s: alive.
    expect(ring.alive(10_000)).toEqual(['a']);
    // Seeing the same record again is not a renewal.
    ring.observe(lease('a', 'a', 't2'), 18_000);
    expect(ring.alive(19_000)).toEqual([]);
  });

  it('drops a released Lease at once, and a Lease held by another name', () => {
    const ring = new RingMembership();
    ring.observe(lease('a', '', 't1'), 0);
    ring.observe(lease('b', 'x', 't1'), 0);
    expect(ring.alive(1)).toEqual([]);
    expect(ring.has('a')).toBe(true);
  });

  it('skips Leases that do not pass the filter (a ring of other resources)', () => {
    const ring = new RingMembership();
    ring.observe(lease('a', 'a', 't1'), 0);
    expect(ring.alive(1, (record) => record.resources === 'v1/secrets')).toEqual([]);
    expect(ring.records()[0]?.resources).toBe('v1/configmaps');
    ring.forget('a');
    expect(ring.records()).toEqual([]);
  });
});
