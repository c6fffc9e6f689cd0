import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { HashRing } from './hash-ring.js';

const keys = Array.from({ length: 3000 }, (_, i) => `default/object-${i}`);

function countBy(ring: HashRing): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const shard = ring.shardFor(key) as string;
    counts.set(shard, (counts.get(shard) ?? 0) + 1);
  }
  return counts;
}

describe('HashRing', () => {
  it('has no owner on an empty ring', () => {
    expect(new HashRing([]).shardFor('a/b')).toBeUndefined();
    expect(new HashRing([]).empty).toBe(true);
  });

  it('assigns by the set of shards, not their order', () => {
    const a = new HashRing(['s-1', 's-2', 's-3']);
    const b = new HashRing(['s-3', 's-1', 's-2', 's-1']);
    expect(b.shards).toEqual(['s-1', 's-2', 's-3']);
    for (const key of keys) expect(b.shardFor(key)).toBe(a.shardFor(key));
  });

  it('spreads keys evenly over shards with 100 virtual nodes (each within ±30% of fair)', () => {
    const counts = countBy(new HashRing(['s-1', 's-2', 's-3', 's-4']));
    expect(counts.size).toBe(4);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(750 * 0.7);
      expect(count).toBeLessThan(750 * 1.3);
    }
  });

  it('moves about 1/n of the keys, all to the new shard, when an n-th shard joins', () => {
    const before = new HashRing(['s-1', 's-2', 's-3']);
    const after = new HashRing(['s-1', 's-2', 's-3', 's-4']);
    const moved = keys.filter((key) => before.shardFor(key) !== after.shardFor(key));
    for (const key of moved) expect(after.shardFor(key)).toBe('s-4');
    expect(moved.length / keys.length).toBeGreaterThan(0.25 * 0.7);
    expect(moved.length / keys.length).toBeLessThan(0.25 * 1.3);
  });

  it("moves only the leaving shard's keys when a shard leaves", () => {
    const before = new HashRing(['s-1', 's-2', 's-3']);
    const after = new HashRing(['s-1', 's-3']);
    for (const key of keys) {
      if (before.shardFor(key) !== 's-2') expect(after.shardFor(key)).toBe(before.shardFor(key));
    }
  });

  it('rejects a token count that is not a positive integer, naming it', () => {
    expect(() => new HashRing(['a'], 0)).toThrow(InvalidArgumentError);
    expect(() => new HashRing(['a'], 1.5)).toThrow(/tokensPerShard/);
  });
});
