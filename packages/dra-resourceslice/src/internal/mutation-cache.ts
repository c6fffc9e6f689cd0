//! client-go's integer-resource-version MutationCache (with adds) over an informer's indexer.

import type { Clock } from '@ctrlkit/core';
import type { KubeObject } from '@ctrlkit/runtime/client';
import type { Indexer } from '@ctrlkit/runtime/informers';

/** Entries the cache keeps at most, as client-go's: 100. */
export const MUTATION_CACHE_SIZE = 100;

interface Entry<T> {
  readonly obj: T;
  readonly expires: number;
}

function version(obj: KubeObject): bigint | undefined {
  const rv = obj.metadata?.resourceVersion;
  if (rv === undefined || !/^\d+$/.test(rv)) return undefined;
  return BigInt(rv);
}

/**
 * Objects this process wrote, kept for `ttlMs` (LRU, {@link MUTATION_CACHE_SIZE} entries)
 * so that reads see them before the informer does. A cached object is returned instead of
 * the informer's copy while its resource version is higher; cached objects the informer
 * does not have yet (adds) are returned too, which is why the controller re-syncs a pool
 * once its adds have expired.
 */
export class MutationCache<T extends KubeObject> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #indexer: Indexer<T>;
  readonly #indexName: string;
  readonly #indexFunc: (obj: T) => readonly string[];
  readonly #ttlMs: number;
  readonly #clock: Clock;

  constructor(
    indexer: Indexer<T>,
    indexName: string,
    indexFunc: (obj: T) => readonly string[],
    ttlMs: number,
    clock: Clock,
  ) {
    this.#indexer = indexer;
    this.#indexName = indexName;
    this.#indexFunc = indexFunc;
    this.#ttlMs = ttlMs;
    this.#clock = clock;
  }

  /** Records an object returned by a create or update. */
  mutation(obj: T): void {
    const key = obj.metadata?.name ?? '';
    this.#entries.delete(key);
    this.#entries.set(key, { obj, expires: this.#clock.now() + this.#ttlMs });
    while (this.#entries.size > MUTATION_CACHE_SIZE) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  #get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#clock.now() >= entry.expires) {
      this.#entries.delete(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.obj;
  }

  /** The informer's objects of an index value, each replaced by a newer cached copy, plus cached adds. */
  byIndex(indexedValue: string): T[] {
    const items: T[] = [];
    const seen = new Set<string>();
    for (const obj of this.#indexer.byIndex(this.#indexName, indexedValue)) {
      const key = obj.metadata?.name ?? '';
      seen.add(key);
      const cached = this.#get(key);
      const cachedVersion = cached && version(cached);
      const storeVersion = version(obj);
      if (
        cached &&
        cachedVersion !== undefined &&
        storeVersion !== undefined &&
        cachedVersion > storeVersion
      ) {
        items.push(cached);
      } else {
        if (cached) this.#entries.delete(key);
        items.push(obj);
      }
    }
    for (const key of [...this.#entries.keys()]) {
      if (seen.has(key)) continue;
      const cached = this.#get(key);
      if (cached && this.#indexFunc(cached).includes(indexedValue)) items.push(cached);
    }
    return items;
  }
}
