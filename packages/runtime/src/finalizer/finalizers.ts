//! Adding and removing one finalizer with a JSON patch guarded by a test operation.

import type { ClientSource, KubeObject, Wire } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { JsonPatchOperation, ObjectWriter } from '../apply/object-writer.js';
import { objectClient } from '../internal/object-client.js';

const qualifiedName =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/** True when `object` lists `finalizer` (controller-runtime's `ContainsFinalizer`). */
export function containsFinalizer(object: KubeObject, finalizer: string): boolean {
  return object.metadata?.finalizers?.includes(finalizer) ?? false;
}

/**
 * Adds `finalizer` to `object` on the server and returns the patched object; returns
 * `object` itself, without a request, when it already lists it. The JSON patch first tests
 * that the finalizer list is still the one `object` shows, so a concurrent change makes it
 * fail (HTTP 422) instead of adding a duplicate: read the object again and retry.
 *
 * Errors: `InvalidArgumentError` for a malformed `finalizer`, or an object without name,
 * apiVersion or kind;
 * the API error (`ApiStatusError`) as it is.
 */
export async function addFinalizer<T extends KubeObject>(
  client: ClientSource | ObjectWriter,
  object: T,
  finalizer: string,
): Promise<T | Wire<T>> {
  checkArguments(object, finalizer);
  if (containsFinalizer(object, finalizer)) return object;
  return objectClient(client).jsonPatch<T>(object, addOperations(object, finalizer));
}

/**
 * Removes `finalizer` from `object` on the server and returns the patched object; returns
 * `object` itself, without a request, when it does not list it. The JSON patch tests that
 * the finalizer is still at the index `object` shows, so it never removes another
 * finalizer; when the list changed meanwhile it fails (HTTP 422): read again and retry.
 *
 * Errors: as {@link addFinalizer}.
 */
export async function removeFinalizer<T extends KubeObject>(
  client: ClientSource | ObjectWriter,
  object: T,
  finalizer: string,
): Promise<T | Wire<T>> {
  checkArguments(object, finalizer);
  const index = object.metadata?.finalizers?.indexOf(finalizer) ?? -1;
  if (index === -1) return object;
  return objectClient(client).jsonPatch<T>(object, removeOperations(index, finalizer));
}

/** The patch adding `finalizer`: against the list `object` shows (absent: null). */
export function addOperations(object: KubeObject, finalizer: string): JsonPatchOperation[] {
  const current = object.metadata?.finalizers ?? [];
  return current.length === 0
    ? [
        { op: 'test', path: '/metadata/finalizers', value: null },
        { op: 'add', path: '/metadata/finalizers', value: [finalizer] },
      ]
    : [
        // The apiserver does not deduplicate finalizers: fail if anyone changed the list.
        { op: 'test', path: '/metadata/finalizers', value: [...current] },
        { op: 'add', path: '/metadata/finalizers/-', value: finalizer },
      ];
}

/** The patch removing the finalizer at `index`, after testing that it is still there. */
export function removeOperations(index: number, finalizer: string): JsonPatchOperation[] {
  const path = `/metadata/finalizers/${index}`;
  return [
    { op: 'test', path, value: finalizer },
    { op: 'remove', path },
  ];
}

function checkArguments(object: KubeObject, finalizer: string): void {
  checkFinalizerName(finalizer);
  if (!object?.metadata?.name) {
    throw new InvalidArgumentError('object.metadata.name', 'is required');
  }
  checkKind(object);
}

/** Throws `InvalidArgumentError` unless `object` says its apiVersion and kind (the URL needs them). */
export function checkKind(object: KubeObject): void {
  for (const field of ['apiVersion', 'kind'] as const) {
    if (!object[field]) {
      throw new InvalidArgumentError(
        `object.${field}`,
        'is required to find the resource (objects from a LIST lack it: set it)',
      );
    }
  }
}

/** Throws `InvalidArgumentError` unless `finalizer` is a qualified name (`example.com/cleanup`). */
export function checkFinalizerName(finalizer: string): void {
  if (typeof finalizer !== 'string' || !qualifiedName.test(finalizer)) {
    throw new InvalidArgumentError(
      'finalizer',
      `must be a qualified name such as example.com/cleanup, got ${JSON.stringify(finalizer)}`,
    );
  }
}
