//! Controller references: the one ownerReference with `controller: true` (apimachinery's `GetControllerOf`, `NewControllerRef`).

import type { KubeObject } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { V1OwnerReference } from '@kubernetes/client-node';

/** A group, version and kind, e.g. `{ group: 'apps', version: 'v1', kind: 'ReplicaSet' }` (`group: ''` for core). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** `apps/v1` for group `apps`, `v1` for the core group. */
export function apiVersionOf(gvk: GroupVersionKind): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/** The controller reference of `object` (its ownerReference with `controller: true`), if any. */
export function getControllerOf(object: KubeObject): V1OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/** True when `object`'s controller reference points at `owner` (by UID). */
export function isControlledBy(object: KubeObject, owner: KubeObject): boolean {
  const ref = getControllerOf(object);
  return ref !== undefined && owner.metadata?.uid !== undefined && ref.uid === owner.metadata.uid;
}

/**
 * A controller reference to `owner` of kind `gvk`, with `controller` and `blockOwnerDeletion`
 * true (apimachinery's `NewControllerRef`). Throws `InvalidArgumentError` if
 * the owner has no name or UID.
 */
export function newControllerRef(owner: KubeObject, gvk: GroupVersionKind): V1OwnerReference {
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!name) throw new InvalidArgumentError('owner.metadata.name', 'is required');
  if (!uid) throw new InvalidArgumentError('owner.metadata.uid', 'is required');
  if (!gvk?.kind || !gvk.version) {
    throw new InvalidArgumentError('gvk', 'needs a version and a kind');
  }
  return {
    apiVersion: apiVersionOf(gvk),
    kind: gvk.kind,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
