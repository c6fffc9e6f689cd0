import { describe, expect, it } from 'vitest';
import {
  openKeys,
  overlaps,
  type ReconcileEvent,
  toIntervals,
} from '../../test/reconcile-intervals.js';

// The overlap check of the sharding integration tests must be able to fail: these cases show
// it finds an overlap of two replicas, counting a killed replica's open reconcile up to a bound.

const ev = (e: 'start' | 'end', shard: string, key: string, t: number): ReconcileEvent => ({
  ev: e,
  shard,
  key,
  t,
});

describe('reconcile intervals', () => {
  it('pairs starts and ends per shard and key, and finds no overlap in a clean hand-over', () => {
    const events = [
      ev('start', 'a', 'ns/x', 0),
      ev('start', 'a', 'ns/y', 1),
      ev('end', 'a', 'ns/x', 300),
      ev('end', 'a', 'ns/y', 250),
      ev('start', 'b', 'ns/x', 300),
      ev('end', 'b', 'ns/x', 600),
    ];
    const intervals = toIntervals(events, () => Number.POSITIVE_INFINITY);
    expect(intervals).toHaveLength(3);
    expect(overlaps(intervals)).toEqual([]);
  });

  it('finds two shards in one key at once', () => {
    const events = [
      ev('start', 'a', 'ns/x', 0),
      ev('start', 'b', 'ns/x', 299),
      ev('end', 'a', 'ns/x', 300),
      ev('end', 'b', 'ns/x', 600),
    ];
    const found = overlaps(toIntervals(events, () => Number.POSITIVE_INFINITY));
    expect(found.map(([a, b]) => [a.shard, b.shard])).toEqual([['a', 'b']]);
  });

  it("counts a killed shard's open reconcile up to the bound given (its Lease's expiry)", () => {
    const events = [ev('start', 'dead', 'ns/x', 100), ev('start', 'b', 'ns/x', 2_000)];
    const bound = (expiry: number) => (shard: string) =>
      shard === 'dead' ? expiry : Number.POSITIVE_INFINITY;
    expect(overlaps(toIntervals(events, bound(1_999)))).toEqual([]);
    const found = overlaps(toIntervals(events, bound(2_001)));
    expect(found).toHaveLength(1);
    expect(found[0]?.[0]).toMatchObject({ shard: 'dead', open: true, end: 2_001 });
    expect([...openKeys(events, 'dead')]).toEqual([['ns/x', 100]]);
  });

  it('rejects a log a workqueue cannot write', () => {
    const twice = [ev('start', 'a', 'ns/x', 0), ev('start', 'a', 'ns/x', 1)];
    expect(() => toIntervals(twice, () => 0)).toThrow(/already in it/);
    expect(() => toIntervals([ev('end', 'a', 'ns/x', 1)], () => 0)).toThrow(/without a start/);
  });
});
