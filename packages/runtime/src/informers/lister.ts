//! Typed listers: read-only views of an informer's cache, by namespace and label selector.

import type { KubeObject } from '@ctrlkit/client';
import { type LabelSelectorLike, toLabelMatcher } from './label-selector.js';
import { type Indexer, NAMESPACE_INDEX } from './store.js';

/** Reads objects of one namespace from the cache. */
export interface NamespaceLister<T> {
  /** The objects of the namespace that match `selector` (default: all). */
  list(selector?: LabelSelectorLike): T[];
  /** The object `name` of the namespace, or undefined. */
  get(name: string): T | undefined;
}

/**
 * Reads objects from an informer's cache (client-go's generated listers). `list` and `get`
 * are for all namespaces and for cluster-scoped objects; `namespace(ns)` narrows to one.
 * Objects are the cached ones, not copies: do not modify them.
 */
export interface Lister<T> {
  /** Every cached object that matches `selector` (default: all). */
  list(selector?: LabelSelectorLike): T[];
  /** The cluster-scoped object `name`, or undefined. */
  get(name: string): T | undefined;
  /** A lister of one namespace. */
  namespace(namespace: string): NamespaceLister<T>;
}

/** A {@link Lister} over `indexer` (usually `informer.indexer`). */
export function newLister<T extends KubeObject>(indexer: Indexer<T>): Lister<T> {
  return {
    list(selector) {
      const all = indexer.list();
      if (selector === undefined) return all;
      const matches = toLabelMatcher(selector);
      return all.filter((obj) => matches(obj.metadata?.labels));
    },
    get: (name) => indexer.getByKey(name),
    namespace(namespace) {
      return {
        list(selector) {
          const objects = indexer.byIndex(NAMESPACE_INDEX, namespace);
          if (selector === undefined) return objects;
          const matches = toLabelMatcher(selector);
          return objects.filter((obj) => matches(obj.metadata?.labels));
        },
        get: (name) => indexer.getByKey(`${namespace}/${name}`),
      };
    },
  };
}
