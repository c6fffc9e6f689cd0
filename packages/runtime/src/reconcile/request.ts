//! A reconcile request: which object to reconcile, as `{ namespace, name }` and as the queue's `"namespace/name"` key.

import type { ObjectWithMetadata } from '../controller/event-source.js';
import { objectKey } from '../controller/keys.js';
import type { Reconciler } from '../controller/reconciler.js';
import { splitMetaNamespaceKey } from '../informers/key-func.js';

/**
 * The object to reconcile (controller-runtime's `reconcile.Request`, a
 * `types.NamespacedName`): `namespace` is `''` for a cluster-scoped object.
 */
export interface Request {
  namespace: string;
  name: string;
}

/** The queue key of `request`: `"namespace/name"`, or `"name"` when cluster-scoped (`NamespacedName.String()` without the slash). */
export function requestKey(request: Request): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

/** The request a queue key stands for (`splitMetaNamespaceKey`); throws for a key with more than one slash. */
export function requestFromKey(key: string): Request {
  return splitMetaNamespaceKey(key);
}

/** The request for `object` (controller-runtime's `client.ObjectKeyFromObject`). */
export function requestForObject(object: ObjectWithMetadata): Request {
  return requestFromKey(objectKey(object));
}

/** A reconciler that takes a {@link Request} (controller-runtime's `reconcile.Func`). */
export type RequestReconciler = (request: Request, signal: AbortSignal) => ReturnType<Reconciler>;

/**
 * Adapts a reconciler of {@link Request}s to the `Controller`'s key-based `Reconciler`:
 * `new Controller({ name, reconcile: requestReconciler(async ({ namespace, name }) => …) })`.
 */
export function requestReconciler(reconcile: RequestReconciler): Reconciler {
  return (key, signal) => reconcile(requestFromKey(key), signal);
}
