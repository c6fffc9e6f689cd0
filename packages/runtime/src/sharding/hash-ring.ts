//! A consistent-hashing ring with virtual nodes: which shard owns a key, moving few keys when shards come and go.

import { InvalidArgumentError } from '@ctrlkit/core';
import { fnv1a64Position } from './fnv1a64.js';

/** Virtual nodes (tokens) per shard by default: 100, as groupcache and the sharding add-on use. */
export const DEFAULT_TOKENS_PER_SHARD = 100;

/**
 * A consistent-hashing ring (Karger et al.) over shard names. Each shard is placed at
 * `tokensPerShard` positions (FNV-1a 64 of `<shard>-<i>`); a key belongs to the first token
 * at or after its own hash, wrapping around.
 *
 * Guarantees: the assignment depends only on the set of shard names (not on the order they
 * are given in, nor on who computes it); adding an n-th shard moves about 1/n of the keys,
 * all of them to the new shard; removing one moves only that shard's keys.
 */
export class HashRing {
  /** The shards on the ring, sorted. */
  readonly shards: readonly string[];
  readonly #positions: Float64Array;
  readonly #owners: string[];

  constructor(shards: Iterable<string>, tokensPerShard = DEFAULT_TOKENS_PER_SHARD) {
    if (!Number.isInteger(tokensPerShard) || tokensPerShard < 1) {
      throw new InvalidArgumentError(
        'tokensPerShard',
        `expected an integer >= 1, got ${String(tokensPerShard)}`,
      );
    }
    this.shards = [...new Set(shards)].sort();
    const tokens: Array<[number, string]> = [];
    for (const shard of this.shards) {
      for (let i = 0; i < tokensPerShard; i++)
        tokens.push([fnv1a64Position(`${shard}-${i}`), shard]);
    }
    // Ties (vanishingly rare) go to the smaller name, so every replica agrees.
    tokens.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    this.#positions = Float64Array.from(tokens, ([position]) => position);
    this.#owners = tokens.map(([, shard]) => shard);
  }

  /** True when no shard is on the ring. */
  get empty(): boolean {
    return this.#owners.length === 0;
  }

  /** The shard that owns `key`; undefined on an empty ring. */
  shardFor(key: string): string | undefined {
    const positions = this.#positions;
    if (positions.length === 0) return undefined;
    const hash = fnv1a64Position(key);
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((positions[middle] as number) < hash) low = middle + 1;
      else high = middle;
    }
    return this.#owners[low === positions.length ? 0 : low];
  }
}
