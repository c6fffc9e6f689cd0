import { FakeClock } from '@ctrlkit/core/testing';
import { Indexer } from '@ctrlkit/runtime/informers';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { MUTATION_CACHE_SIZE, MutationCache } from './mutation-cache.js';

const index = (s: V1ResourceSlice) => [s.spec?.pool?.name ?? ''];
const slice = (name: string, rv: string, pool = 'pool'): V1ResourceSlice => ({
  metadata: { name, resourceVersion: rv },
  spec: { driver: 'd', pool: { name: pool, generation: 1, resourceSliceCount: 1 } },
});

function setup(ttl = 1000) {
  const clock = new FakeClock();
  const indexer = new Indexer<V1ResourceSlice>({ indexers: { pool: index } });
  return { clock, indexer, cache: new MutationCache(indexer, 'pool', index, ttl, clock) };
}

describe('MutationCache', () => {
  it('returns a newer cached copy instead of the informer one', () => {
    const { indexer, cache } = setup();
    indexer.add(slice('a', '5'));
    cache.mutation(slice('a', '7'));
    expect(cache.byIndex('pool').map((s) => s.metadata?.resourceVersion)).toEqual(['7']);
  });

  it('drops a cached copy once the informer has caught up', () => {
    const { indexer, cache } = setup();
    indexer.add(slice('a', '5'));
    cache.mutation(slice('a', '7'));
    indexer.update(slice('a', '8'));
    expect(cache.byIndex('pool').map((s) => s.metadata?.resourceVersion)).toEqual(['8']);
  });

  it('includes adds of the index value until the TTL expires', () => {
    const { clock, cache } = setup(1000);
    cache.mutation(slice('new', '3'));
    cache.mutation(slice('other', '4', 'other-pool'));
    expect(cache.byIndex('pool').map((s) => s.metadata?.name)).toEqual(['new']);
    clock.step(999);
    expect(cache.byIndex('pool')).toHaveLength(1);
    clock.step(1);
    expect(cache.byIndex('pool')).toHaveLength(0);
  });

  it(`keeps at most ${MUTATION_CACHE_SIZE} entries`, () => {
    const { cache } = setup();
    for (let i = 0; i <= MUTATION_CACHE_SIZE; i++) cache.mutation(slice(`s${i}`, `${i + 1}`));
    const names = cache.byIndex('pool').map((s) => s.metadata?.name);
    expect(names).toHaveLength(MUTATION_CACHE_SIZE);
    expect(names).not.toContain('s0');
  });
});
