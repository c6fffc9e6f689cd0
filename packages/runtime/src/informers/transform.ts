//! Transforms applied to objects before they are cached, to save memory.

import type { KubeObject } from '@ctrlkit/client';

/** Changes an object before it is stored and handed to handlers; it may modify `obj` in place. */
export type TransformFunc<T> = (obj: T) => T;

/**
 * Drops `metadata.managedFields` (server-side apply bookkeeping, often a sixth of an
 * object's size), as controller-runtime's cache does by default. Returns `obj` with `metadata` replaced by a copy
 * without the field.
 */
export function dropManagedFields<T extends KubeObject>(obj: T): T {
  const metadata = obj.metadata;
  if (metadata === undefined || metadata.managedFields === undefined) return obj;
  // Rebuilt rather than `delete`d: a `delete` turns the object into a dictionary, which
  // costs about 400 bytes more per cached object (measured on V8 / Node 24).
  const { managedFields: _, ...rest } = metadata;
  obj.metadata = rest;
  return obj;
}
