//! A JSON merge patch of an object's status subresource.

import type { ClientSource, KubeObject, Wire } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { MERGE_PATCH, objectClient } from '../internal/object-client.js';
import { checkTarget } from './apply.js';
import type { ObjectWriter } from './object-writer.js';

/** Options of {@link patchStatus}. */
export interface PatchStatusOptions {
  /**
   * Send `object.metadata.resourceVersion` with the patch, so it fails with 409 Conflict
   * when the object changed since it was read (controller-runtime's
   * `MergeFromWithOptimisticLock`); pair with `retryOnConflict`. Default false: last write wins.
   */
  optimisticLock?: boolean;
  /** Recorded as the manager of the changed fields. Default: the client's user agent. */
  fieldManager?: string;
}

/**
 * A JSON merge patch (RFC 7386) of the status subresource of `object` (apiVersion, kind,
 * metadata.name, namespace): `status` is merged into the stored status; a `null` value
 * removes a field, arrays are replaced whole. Returns the object as stored.
 *
 * Errors: `InvalidArgumentError` for a missing apiVersion, kind or name, or a `status`
 * that is not an object, or `optimisticLock` without a resourceVersion; the API error
 * (`ApiStatusError`): 409 with `optimisticLock` when the object changed, 404
 * when it, or its status subresource, does not exist.
 */
export function patchStatus<T extends KubeObject>(
  client: ClientSource | ObjectWriter,
  object: T,
  status: Record<string, unknown>,
  options: PatchStatusOptions = {},
): Promise<Wire<T>> {
  checkTarget(object);
  if (typeof status !== 'object' || status === null || Array.isArray(status)) {
    throw new InvalidArgumentError('status', 'must be an object');
  }
  const resourceVersion = object.metadata?.resourceVersion;
  if (options.optimisticLock === true && !resourceVersion) {
    throw new InvalidArgumentError(
      'object.metadata.resourceVersion',
      'is required with optimisticLock',
    );
  }
  const body = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: {
      name: object.metadata?.name,
      namespace: object.metadata?.namespace,
      ...(options.optimisticLock === true && { resourceVersion }),
    },
    status,
  } as KubeObject;
  return objectClient(client).patchObject<T>(body, MERGE_PATCH, {
    subresource: 'status',
    ...(options.fieldManager !== undefined && { fieldManager: options.fieldManager }),
  });
}
