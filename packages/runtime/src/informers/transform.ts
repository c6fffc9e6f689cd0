//! Transforms applied to objects before they are cached, to save memory.

import type { KubernetesObject } from '@kubernetes/client-node';

/** Changes an object before it is stored and handed to handlers; it may modify `obj` in place. */
export type TransformFunc<T> = (obj: T) => T;

/**
 * Drops `metadata.managedFields` (server-side apply bookkeeping, often a sixth of an
 * object's size), as controller-runtime's cache does by default. Modifies `obj` in place.
 */
export function dropManagedFields<T extends KubernetesObject>(obj: T): T {
  const metadata = obj.metadata;
  if (metadata !== undefined && metadata.managedFields !== undefined) delete metadata.managedFields;
  return obj;
}
