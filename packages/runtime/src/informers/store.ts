//! An indexed in-memory store of objects keyed by `namespace/name` (client-go's Indexer).

import type { KubeObject } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { type KeyFunc, metaNamespaceKeyFunc } from './key-func.js';

/** Computes the values under which an object is indexed (none, one or several). */
export type IndexFunc<T> = (obj: T) => readonly string[];
/** Index functions by index name. */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/** The name of the built-in namespace index (client-go's `cache.NamespaceIndex`). */
export const NAMESPACE_INDEX = 'namespace';

/** Indexes an object by its namespace; cluster-scoped objects are not indexed (client-go's `MetaNamespaceIndexFunc`). */
export function metaNamespaceIndexFunc(obj: KubeObject): readonly string[] {
  const namespace = obj?.metadata?.namespace;
  return namespace ? [namespace] : [];
}

/** Options of an {@link Indexer}. */
export interface IndexerOptions<T> {
  /** How objects are keyed. Default {@link metaNamespaceKeyFunc}. */
  keyFunc?: KeyFunc<T>;
  /** Index functions beside the namespace index. Default: none. */
  indexers?: Indexers<T>;
}

type Index = Map<string, Set<string>>;

/**
 * A keyed, indexed store (client-go's `cache.Indexer` over its thread-safe store). Every
 * operation is synchronous, so a reader never sees a half-applied change. The namespace
 * index ({@link NAMESPACE_INDEX}) is always present. Objects are stored as given, not
 * copied: treat what `get`/`list` return as read-only.
 */
export class Indexer<T extends KubeObject = KubeObject> {
  readonly keyFunc: KeyFunc<T>;
  readonly #items = new Map<string, T>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  readonly #indices = new Map<string, Index>();
  /** The indexes as an array, for the per-object loops of `add` and `delete`. */
  readonly #indexList: Array<{ readonly fn: IndexFunc<T>; readonly index: Index }> = [];

  constructor(options: IndexerOptions<T> = {}) {
    if (options.keyFunc !== undefined && typeof options.keyFunc !== 'function') {
      throw new InvalidArgumentError('keyFunc', 'must be a function');
    }
    this.keyFunc = options.keyFunc ?? (metaNamespaceKeyFunc as KeyFunc<T>);
    this.#addIndexer(NAMESPACE_INDEX, metaNamespaceIndexFunc as IndexFunc<T>);
    if (options.indexers !== undefined) this.addIndexers(options.indexers);
  }

  /** How many objects the store holds. */
  get size(): number {
    return this.#items.size;
  }

  /**
   * Adds index functions; objects already stored are indexed at once. Throws
   * `InvalidArgumentError` for a name already in use or a value that is not a function.
   */
  addIndexers(indexers: Indexers<T>): void {
    if (indexers === null || typeof indexers !== 'object') {
      throw new InvalidArgumentError('indexers', 'must be an object of index functions');
    }
    for (const [name, fn] of Object.entries(indexers)) {
      if (typeof fn !== 'function')
        throw new InvalidArgumentError(`indexers.${name}`, 'must be a function');
      if (this.#indexers.has(name))
        throw new InvalidArgumentError(`indexers.${name}`, 'an index of that name exists');
    }
    for (const [name, fn] of Object.entries(indexers)) this.#addIndexer(name, fn);
  }

  /** The names of the indexes. */
  indexNames(): string[] {
    return [...this.#indexers.keys()];
  }

  /** Adds or replaces the object under its key. */
  add(obj: T): void {
    this.#put(this.keyFunc(obj), obj);
  }

  /** Same as {@link add}. */
  update(obj: T): void {
    this.#put(this.keyFunc(obj), obj);
  }

  /**
   * Stores `obj` under `key`, which must be `keyFunc(obj)` (for a caller that has it already),
   * and returns the object it replaced.
   * @internal
   */
  put(key: string, obj: T): T | undefined {
    return this.#put(key, obj);
  }

  /** Removes the object with the key of `obj`; nothing happens when there is none. */
  delete(obj: T): void {
    this.deleteByKey(this.keyFunc(obj));
  }

  /** Removes the object under `key`; returns it, or undefined when there was none. */
  deleteByKey(key: string): T | undefined {
    const old = this.#items.get(key);
    if (old === undefined) return undefined;
    this.#items.delete(key);
    for (const { fn, index } of this.#indexList) unindex(index, fn(old), key);
    return old;
  }

  /** The stored object with the key of `obj`. */
  get(obj: T): T | undefined {
    return this.#items.get(this.keyFunc(obj));
  }

  /** The stored object under `key` (`namespace/name` or `name`). */
  getByKey(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** Every stored object, in no particular order. */
  list(): T[] {
    return [...this.#items.values()];
  }

  /** Every key, in no particular order. */
  listKeys(): string[] {
    return [...this.#items.keys()];
  }

  /** Iterates over `[key, object]` without copying. */
  entries(): IterableIterator<[string, T]> {
    return this.#items.entries();
  }

  /** Replaces the whole contents with `objects`, rebuilding the indexes. */
  replace(objects: readonly T[]): void {
    this.#items.clear();
    for (const index of this.#indices.values()) index.clear();
    for (const obj of objects) this.#put(this.keyFunc(obj), obj);
  }

  /** The stored objects that share an indexed value with `obj` in index `indexName`. */
  index(indexName: string, obj: T): T[] {
    const fn = this.#indexFunc(indexName);
    const index = this.#indices.get(indexName) as Index;
    const keys = new Set<string>();
    for (const value of fn(obj)) for (const key of index.get(value) ?? []) keys.add(key);
    return this.#objects(keys);
  }

  /** The keys indexed under `indexedValue` in `indexName`. */
  indexKeys(indexName: string, indexedValue: string): string[] {
    this.#indexFunc(indexName);
    return [...((this.#indices.get(indexName) as Index).get(indexedValue) ?? [])];
  }

  /** The objects indexed under `indexedValue` in `indexName`. */
  byIndex(indexName: string, indexedValue: string): T[] {
    this.#indexFunc(indexName);
    return this.#objects((this.#indices.get(indexName) as Index).get(indexedValue) ?? []);
  }

  /** The values present in index `indexName`. */
  listIndexFuncValues(indexName: string): string[] {
    this.#indexFunc(indexName);
    return [...(this.#indices.get(indexName) as Index).keys()];
  }

  #indexFunc(indexName: string): IndexFunc<T> {
    const fn = this.#indexers.get(indexName);
    if (fn === undefined)
      throw new InvalidArgumentError('indexName', `no index named ${JSON.stringify(indexName)}`);
    return fn;
  }

  #objects(keys: Iterable<string>): T[] {
    const out: T[] = [];
    for (const key of keys) {
      const obj = this.#items.get(key);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  #addIndexer(name: string, fn: IndexFunc<T>): void {
    this.#indexers.set(name, fn);
    const index: Index = new Map();
    this.#indices.set(name, index);
    this.#indexList.push({ fn, index });
    for (const [key, obj] of this.#items) indexValues(index, fn(obj), key);
  }

  #put(key: string, obj: T): T | undefined {
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    const indexes = this.#indexList;
    for (let i = 0; i < indexes.length; i++) {
      const { fn, index } = indexes[i] as (typeof indexes)[number];
      // The namespace index, on an update: unchanged unless the namespace is (no arrays made).
      if (
        old !== undefined &&
        fn === metaNamespaceIndexFunc &&
        old.metadata?.namespace === obj.metadata?.namespace
      )
        continue;
      const values = fn(obj);
      if (old === undefined) {
        indexValues(index, values, key);
        continue;
      }
      const oldValues = fn(old);
      if (oldValues.length === 1 && values.length === 1 && oldValues[0] === values[0]) continue;
      unindex(index, oldValues, key);
      indexValues(index, values, key);
    }
    return old;
  }
}

function indexValues(index: Index, values: readonly string[], key: string): void {
  for (const value of values) {
    let keys = index.get(value);
    if (keys === undefined) {
      keys = new Set();
      index.set(value, keys);
    }
    keys.add(key);
  }
}

function unindex(index: Index, values: readonly string[], key: string): void {
  for (const value of values) {
    const keys = index.get(value);
    if (keys === undefined) continue;
    keys.delete(key);
    if (keys.size === 0) index.delete(value);
  }
}
