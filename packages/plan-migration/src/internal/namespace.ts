//! Ensuring a namespace exists, as both destinations do before anything else.

import { isConflict, isNotFound } from '@ctrlkit/core';
import type { CoreApi } from './kube-api.js';

/** Creates `namespace` unless it exists (another creator winning the race is fine); true when a create was sent. */
export async function createNamespaceIfMissing(core: CoreApi, namespace: string): Promise<boolean> {
  try {
    await core.readNamespace({ name: namespace });
    return false;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  } catch (error) {
    if (!isConflict(error)) throw error;
  }
  return true;
}
