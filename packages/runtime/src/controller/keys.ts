//! The keys a controller reconciles: "namespace/name", or "name" for cluster-scoped objects.

import { metaNamespaceKeyFunc } from '../informers/key-func.js';
import type { ObjectWithMetadata } from './event-source.js';

/**
 * The key of an object: "namespace/name", or "name" when it has no namespace (the
 * informers' {@link metaNamespaceKeyFunc}; `InvalidArgumentError` without a name).
 */
export function objectKey(obj: ObjectWithMetadata): string {
  return metaNamespaceKeyFunc(obj);
}

/** Which owners {@link enqueueRequestForOwner} maps to. */
export interface OwnerMatch {
  /** The owner's kind, e.g. `ReplicaSet`. */
  kind: string;
  /** The owner's group (`apps`, `""` for core). Default: any group. */
  group?: string;
  /** Only the controlling owner (`controller: true`). Default true, as controller-runtime's `OnlyControllerOwner`. */
  onlyController?: boolean;
}

/**
 * A `mapToKeys` for {@link Controller.watch} that enqueues an object's owner instead of
 * the object (controller-runtime's `EnqueueRequestForOwner`). Owners are assumed to live
 * in the object's namespace (owner references cannot cross namespaces).
 */
export function enqueueRequestForOwner(match: OwnerMatch): (obj: ObjectWithMetadata) => string[] {
  const onlyController = match.onlyController ?? true;
  return (obj) => {
    const namespace = obj.metadata?.namespace;
    const keys: string[] = [];
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      if (ref.kind !== match.kind) continue;
      if (onlyController && ref.controller !== true) continue;
      if (match.group !== undefined && groupOf(ref.apiVersion) !== match.group) continue;
      keys.push(namespace ? `${namespace}/${ref.name}` : ref.name);
    }
    return keys;
  };
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}
