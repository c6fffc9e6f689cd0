//! A small least-recently-used cache on a Map (internal: not exported from the package).

/** Keeps at most `maxEntries` values, evicting the least recently used. */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly maxEntries: number) {}

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#map.size;
  }
}
