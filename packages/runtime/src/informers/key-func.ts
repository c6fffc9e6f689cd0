//! Store keys (`namespace/name`) and the tombstone of an object whose deletion was missed.

import type { KubeObject } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';

const marker = Symbol.for('@ctrlkit/runtime/DeletedFinalStateUnknown');

/**
 * Computes the store key of an object, `namespace/name` by default (client-go's
 * `cache.KeyFunc`). Not a work queue item's identity: that is `@ctrlkit/workqueue`'s `ItemKeyFunc`.
 */
export type KeyFunc<T> = (obj: T) => string;

/**
 * What `onDelete` receives instead of the object when the informer missed the deletion
 * (the object vanished between two LISTs): `key` and the last state the cache knew, `obj`
 * (client-go's `cache.DeletedFinalStateUnknown`).
 */
export class DeletedFinalStateUnknown<T = KubeObject> {
  readonly [marker] = true;
  constructor(
    /** The store key of the deleted object. */
    readonly key: string,
    /** The last state of the object the cache held; it may be stale. */
    readonly obj: T,
  ) {}

  /** True for a tombstone, also one made by another copy of this package. */
  static isInstance<T = KubeObject>(value: unknown): value is DeletedFinalStateUnknown<T> {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/**
 * The key of an object: `namespace/name`, or `name` for a cluster-scoped object
 * (client-go's `MetaNamespaceKeyFunc`). Throws `InvalidArgumentError` for an object
 * without `metadata.name`.
 */
export function metaNamespaceKeyFunc(obj: KubeObject): string {
  const metadata = obj?.metadata;
  const name = metadata?.name;
  if (typeof name !== 'string' || name === '') {
    throw new InvalidArgumentError('obj.metadata.name', 'an object needs a name to be keyed');
  }
  const namespace = metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * Like {@link metaNamespaceKeyFunc}, and for a {@link DeletedFinalStateUnknown} its `key`
 * (client-go's `DeletionHandlingMetaNamespaceKeyFunc`): use it in `onDelete` handlers.
 */
export function deletionHandlingMetaNamespaceKeyFunc(
  obj: KubeObject | DeletedFinalStateUnknown<unknown>,
): string {
  if (DeletedFinalStateUnknown.isInstance(obj)) return obj.key;
  return metaNamespaceKeyFunc(obj as KubeObject);
}

/** Splits a key into namespace (`''` for cluster-scoped) and name (client-go's `SplitMetaNamespaceKey`). */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] as string };
  if (parts.length === 2) return { namespace: parts[0] as string, name: parts[1] as string };
  throw new InvalidArgumentError('key', `unexpected key format: ${JSON.stringify(key)}`);
}
