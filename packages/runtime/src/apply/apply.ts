//! Server-side apply of an object or its status, under a field manager.

import type { ClientSource, KubeObject, Wire } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { APPLY_PATCH, objectClient } from '../internal/object-client.js';
import type { ObjectWriter } from './object-writer.js';

/** Options of {@link apply} and {@link applyStatus}. */
export interface ApplyOptions {
  /** Who owns the applied fields, e.g. `my-controller`: at most 128 printable characters. Required. */
  fieldManager: string;
  /**
   * Take fields another manager owns instead of failing with 409 Conflict (as
   * controller-runtime's `client.ForceOwnership`; controllers usually want it). Default false.
   */
  force?: boolean;
  /** Validate and answer without persisting. Default false. */
  dryRun?: boolean;
}

/**
 * Server-side apply (`PATCH` with `application/apply-patch+yaml`) of `object`: the fields
 * it sets become owned by `fieldManager`, fields this manager applied before and leaves
 * out now are removed, fields of other managers stay. `object` is the intent: apiVersion,
 * kind, metadata.name (and namespace), and only the fields you mean to own;
 * `metadata.managedFields` is left out of the request. Creates the object when it does
 * not exist. Returns the object as stored.
 *
 * Errors: `InvalidArgumentError` for a missing `fieldManager`, apiVersion, kind or name;
 * the API error (`ApiStatusError`): 409 when another manager owns a field and
 * `force` is not set, 422 for an invalid object.
 */
export function apply<T extends KubeObject>(
  client: ClientSource | ObjectWriter,
  object: T,
  options: ApplyOptions,
): Promise<Wire<T>> {
  check(object, options);
  return objectClient(client).patchObject<T>(object, APPLY_PATCH, request(options));
}

/**
 * Server-side apply of `object`'s status (the status subresource; `object` needs
 * apiVersion, kind, metadata.name and the `status` fields this manager owns). Spec changes
 * in `object` are ignored by the server. Returns the object as stored.
 *
 * Errors: as {@link apply}; 404 when the resource has no status subresource.
 */
export function applyStatus<T extends KubeObject>(
  client: ClientSource | ObjectWriter,
  object: T,
  options: ApplyOptions,
): Promise<Wire<T>> {
  check(object, options);
  return objectClient(client).patchObject<T>(object, APPLY_PATCH, {
    ...request(options),
    subresource: 'status',
  });
}

function request(options: ApplyOptions) {
  return {
    fieldManager: options.fieldManager,
    ...(options.force === true && { force: true }),
    ...(options.dryRun === true && { dryRun: 'All' as const }),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: printable means no control characters
const printable = /^[^\u0000-\u001f\u007f]{1,128}$/u;

function check(object: KubeObject, options: ApplyOptions): void {
  if (typeof options?.fieldManager !== 'string' || !printable.test(options.fieldManager)) {
    throw new InvalidArgumentError(
      'fieldManager',
      'is required: 1 to 128 printable characters, e.g. the controller name',
    );
  }
  if (options.force !== undefined && typeof options.force !== 'boolean') {
    throw new InvalidArgumentError('force', 'must be a boolean');
  }
  if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') {
    throw new InvalidArgumentError('dryRun', 'must be a boolean');
  }
  checkTarget(object);
}

/** Throws `InvalidArgumentError` unless `object` names its apiVersion, kind and name. */
export function checkTarget(object: KubeObject): void {
  for (const [field, value] of [
    ['object.apiVersion', object?.apiVersion],
    ['object.kind', object?.kind],
    ['object.metadata.name', object?.metadata?.name],
  ] as const) {
    if (typeof value !== 'string' || value === '') {
      throw new InvalidArgumentError(field, 'is required');
    }
  }
}
