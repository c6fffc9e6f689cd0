//! Event handlers under controller-runtime's names: which keys an object's events enqueue.
//! Each is a `mapToKeys` for `Controller.watch`; `enqueueRequestForOwner` lives in `controller/keys.ts`.

import type { ObjectWithMetadata } from '../controller/event-source.js';
import { objectKey } from '../controller/keys.js';
import { type Request, requestKey } from '../reconcile/request.js';

/**
 * Enqueues the object's own request (controller-runtime's `EnqueueRequestForObject`), the
 * `Controller.watch` default: `watch(pods, { mapToKeys: enqueueRequestForObject() })`.
 */
export function enqueueRequestForObject<T extends ObjectWithMetadata>(): (object: T) => string[] {
  return (object) => [objectKey(object)];
}

/**
 * Enqueues the requests `map` returns for the object (controller-runtime's
 * `EnqueueRequestsFromMapFunc`), e.g. every object that refers to a changed Secret.
 * An empty list enqueues nothing.
 */
export function enqueueRequestsFromMapFunc<T>(
  map: (object: T) => readonly Request[],
): (object: T) => string[] {
  return (object) => map(object).map(requestKey);
}
