//! Setting and removing owner references with controller-runtime's checks (`controllerutil`).

import type { KubeObject } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { V1OwnerReference } from '@kubernetes/client-node';
import {
  type GroupVersionKind,
  getControllerOf,
  newControllerRef,
} from '../controller-refs/controller-ref.js';
import { AlreadyOwnedError } from './already-owned-error.js';
import { OwnerReferenceError } from './owner-reference-error.js';

/** Options of {@link setControllerReference} and {@link setOwnerReference}. */
export interface OwnerReferenceOptions {
  /**
   * The owner's group, version and kind. Default: read from the owner's `apiVersion` and
   * `kind` (objects from a LIST often lack them: pass it then).
   */
  gvk?: GroupVersionKind;
  /**
   * The reference's `blockOwnerDeletion` (controller-runtime's `WithBlockOwnerDeletion`).
   * Default: true for a controller reference, unset for a plain owner reference.
   */
  blockOwnerDeletion?: boolean;
}

/**
 * Makes `owner` the controller of `object` (controller-runtime's `SetControllerReference`):
 * adds, or replaces the reference to the same owner (same group, kind and name) with, a
 * reference with `controller` and `blockOwnerDeletion` true, in `object.metadata.ownerReferences`
 * (changed in place). The garbage collector then deletes `object` with its owner, and
 * `enqueueRequestForOwner` maps `object`'s events to the owner.
 *
 * Errors: {@link AlreadyOwnedError} when `object` already has another controller;
 * {@link OwnerReferenceError} `NamespacedOwnerOfClusterScopedObject` or
 * `CrossNamespaceOwner` (a cluster-scoped owner of a namespaced object is fine);
 * `InvalidArgumentError` when the owner has no name or UID (`owner.metadata.name`,
 * `owner.metadata.uid`) or its kind is unknown (`gvk`).
 */
export function setControllerReference(
  owner: KubeObject,
  object: KubeObject,
  options: OwnerReferenceOptions = {},
): void {
  validateOwner(owner, object);
  const ref = newControllerRef(owner, gvkOf(owner, options));
  if (options.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = options.blockOwnerDeletion;
  const existing = getControllerOf(object);
  if (existing !== undefined && !referSameObject(existing, ref)) {
    throw new AlreadyOwnedError(
      { namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' },
      existing,
    );
  }
  upsertOwnerRef(ref, object);
}

/**
 * Makes `owner` an owner of `object`, not its controller (controller-runtime's
 * `SetOwnerReference`): adds, or replaces the reference to the same owner with, a plain
 * reference (no `controller`), in place.
 *
 * Errors: as {@link setControllerReference}, except `AlreadyOwnedError`.
 */
export function setOwnerReference(
  owner: KubeObject,
  object: KubeObject,
  options: OwnerReferenceOptions = {},
): void {
  validateOwner(owner, object);
  const gvk = gvkOf(owner, options);
  const {
    controller: _controller,
    blockOwnerDeletion: _block,
    ...ref
  } = newControllerRef(owner, gvk);
  upsertOwnerRef(
    {
      ...ref,
      ...(options.blockOwnerDeletion !== undefined && {
        blockOwnerDeletion: options.blockOwnerDeletion,
      }),
    },
    object,
  );
}

/**
 * Removes `object`'s reference to `owner` (matched by group, kind and name), in place
 * (controller-runtime's `RemoveOwnerReference`).
 *
 * Errors: {@link OwnerReferenceError} `NoOwnerReference` when there is none.
 */
export function removeOwnerReference(
  owner: KubeObject,
  object: KubeObject,
  options: Pick<OwnerReferenceOptions, 'gvk'> = {},
): void {
  const refs = object.metadata?.ownerReferences ?? [];
  const index = indexOwnerRef(refs, referenceTo(owner, gvkOf(owner, options)));
  if (index === -1) {
    throw new OwnerReferenceError(
      'NoOwnerReference',
      `${describe(object)} does not have an owner reference to ${describe(owner)}`,
    );
  }
  setOwnerReferences(
    object,
    refs.filter((_, i) => i !== index),
  );
}

/**
 * Removes `object`'s controller reference, which must point at `owner`, in place
 * (controller-runtime's `RemoveControllerReference`).
 *
 * Errors: {@link OwnerReferenceError} `NoOwnerReference` when `object` has no controller
 * reference or none to `owner`, `NotController` when its reference to `owner` is not the
 * controller one.
 */
export function removeControllerReference(
  owner: KubeObject,
  object: KubeObject,
  options: Pick<OwnerReferenceOptions, 'gvk'> = {},
): void {
  if (!hasControllerReference(object)) {
    throw new OwnerReferenceError(
      'NoOwnerReference',
      `${describe(object)} does not have an owner reference with controller equals true`,
    );
  }
  const refs = object.metadata?.ownerReferences ?? [];
  const index = indexOwnerRef(refs, referenceTo(owner, gvkOf(owner, options)));
  if (index === -1) {
    throw new OwnerReferenceError(
      'NoOwnerReference',
      `${describe(object)} does not have a controller reference to ${describe(owner)}`,
    );
  }
  if (refs[index]?.controller !== true) {
    throw new OwnerReferenceError(
      'NotController',
      `${describe(owner)} is not the controller of ${describe(object)}`,
    );
  }
  setOwnerReferences(
    object,
    refs.filter((_, i) => i !== index),
  );
}

/** True when `object` has an owner reference with `controller: true` (`HasControllerReference`). */
export function hasControllerReference(object: KubeObject): boolean {
  return getControllerOf(object) !== undefined;
}

/**
 * True when `ownerReferences` has a reference to `owner`, matched by group, kind and name
 * (controller-runtime's `HasOwnerReference`).
 */
export function hasOwnerReference(
  ownerReferences: readonly V1OwnerReference[] | undefined,
  owner: KubeObject,
  options: Pick<OwnerReferenceOptions, 'gvk'> = {},
): boolean {
  return indexOwnerRef(ownerReferences ?? [], referenceTo(owner, gvkOf(owner, options))) !== -1;
}

function validateOwner(owner: KubeObject, object: KubeObject): void {
  const ownerNamespace = owner.metadata?.namespace ?? '';
  if (ownerNamespace === '') return;
  const objectNamespace = object.metadata?.namespace ?? '';
  if (objectNamespace === '') {
    throw new OwnerReferenceError(
      'NamespacedOwnerOfClusterScopedObject',
      `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNamespace}`,
    );
  }
  if (ownerNamespace !== objectNamespace) {
    throw new OwnerReferenceError(
      'CrossNamespaceOwner',
      `cross-namespace owner references are disallowed, owner's namespace ${ownerNamespace}, obj's namespace ${objectNamespace}`,
    );
  }
}

function gvkOf(owner: KubeObject, options: Pick<OwnerReferenceOptions, 'gvk'>): GroupVersionKind {
  if (options.gvk !== undefined) return options.gvk;
  const { apiVersion, kind } = owner;
  if (!apiVersion || !kind) {
    throw new InvalidArgumentError(
      'gvk',
      "is required when the owner has no apiVersion and kind (objects from a LIST don't)",
    );
  }
  const slash = apiVersion.indexOf('/');
  return slash === -1
    ? { group: '', version: apiVersion, kind }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
}

/** A reference for matching only: apiVersion, kind and name. */
function referenceTo(owner: KubeObject, gvk: GroupVersionKind): V1OwnerReference {
  const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  return { apiVersion, kind: gvk.kind, name: owner.metadata?.name ?? '', uid: '' };
}

function upsertOwnerRef(ref: V1OwnerReference, object: KubeObject): void {
  const refs = [...(object.metadata?.ownerReferences ?? [])];
  const index = indexOwnerRef(refs, ref);
  if (index === -1) refs.push(ref);
  else refs[index] = ref;
  setOwnerReferences(object, refs);
}

function setOwnerReferences(object: KubeObject, refs: V1OwnerReference[]): void {
  object.metadata = { ...object.metadata, ownerReferences: refs };
}

function indexOwnerRef(refs: readonly V1OwnerReference[], ref: V1OwnerReference): number {
  return refs.findIndex((r) => referSameObject(r, ref));
}

/** Same group, kind and name (the version may differ), as controller-runtime compares. */
function referSameObject(a: V1OwnerReference, b: V1OwnerReference): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

function describe(object: KubeObject): string {
  const { namespace, name } = object.metadata ?? {};
  return `${object.kind ?? 'object'} ${namespace ? `${namespace}/` : ''}${name ?? ''}`;
}
