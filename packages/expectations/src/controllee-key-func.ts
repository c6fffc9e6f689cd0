/** Keys of Kubernetes objects and of their tombstones, as client-go computes them. */

import { KeyFuncError } from './key-func-error.js';

/**
 * What an informer hands to a delete handler when it missed the delete itself and only
 * knows the object's last state (client-go's `DeletedFinalStateUnknown`): the object's
 * key and its last known state, which may be stale.
 */
export interface DeletedFinalStateUnknown<T = unknown> {
  /** The deleted object's "namespace/name" key. */
  key: string;
  /** The object as last seen. */
  obj: T;
}

/** The part of an object's metadata a key needs. */
export interface KeyedObjectMeta {
  /** Empty or absent for a cluster-scoped object. */
  namespace?: string | undefined;
  /** Required: an object without a name has no key. */
  name?: string | undefined;
}

/** True when `value` is a tombstone (`{ key, obj }` without `metadata`). */
export function isDeletedFinalStateUnknown(value: unknown): value is DeletedFinalStateUnknown {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { key?: unknown }).key === 'string' &&
    'obj' in value &&
    !('metadata' in value)
  );
}

/**
 * The key of a Kubernetes object, "namespace/name" (or "name" for a cluster-scoped
 * object); for a tombstone, the key it carries; for a string, the string itself
 * (client-go's `DeletionHandlingMetaNamespaceKeyFunc`, Grove's `ControlleeKeyFunc`).
 * @throws KeyFuncError when the object has no `metadata.name`.
 */
export function controlleeKeyFunc(obj: unknown): string {
  if (typeof obj === 'string') return obj;
  if (isDeletedFinalStateUnknown(obj)) return obj.key;
  const meta =
    typeof obj === 'object' && obj !== null
      ? (obj as { metadata?: KeyedObjectMeta }).metadata
      : undefined;
  const name = meta?.name;
  if (typeof name !== 'string' || name.length === 0) {
    throw new KeyFuncError('controlleeKeyFunc', 'object has no metadata.name');
  }
  const ns = meta?.namespace;
  return typeof ns === 'string' && ns.length > 0 ? `${ns}/${name}` : name;
}
