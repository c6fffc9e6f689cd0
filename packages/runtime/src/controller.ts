/**
 * `@ctrlkit/runtime/controller`: the controller loop and what a reconciler works with.
 *
 * - **The loop**: {@link Controller} turns informer events into keys in a rate-limited
 *   queue and runs workers that call your {@link Reconciler}; it returns a
 *   {@link ReconcileResult}, throws to retry, or throws {@link TerminalError} to drop the
 *   key. Its reconcile metrics: {@link PrometheusReconcileMetrics}.
 * - **Requests**: {@link Request} (`{ namespace, name }`), {@link requestReconciler},
 *   {@link requestKey}, {@link requestFromKey}, {@link requestForObject}.
 * - **Event handlers** (`mapToKeys` of `Controller.watch`): {@link enqueueRequestForObject},
 *   {@link enqueueRequestForOwner}, {@link enqueueRequestsFromMapFunc}.
 * - **Predicates** (`predicates` of `Controller.watch`): {@link generationChangedPredicate},
 *   {@link labelChangedPredicate}, {@link annotationChangedPredicate},
 *   {@link resourceVersionChangedPredicate}, {@link labelSelectorPredicate}, {@link and},
 *   {@link or}, {@link not}, {@link predicateFuncs}.
 * - **Owner references** (controller-runtime's `controllerutil`, in memory):
 *   {@link setControllerReference}, {@link setOwnerReference},
 *   {@link removeOwnerReference}, {@link hasControllerReference}, {@link AlreadyOwnedError}.
 * - **Controller references** (apimachinery and kube's controller-ref manager):
 *   {@link getControllerOf}, {@link isControlledBy}, {@link newControllerRef},
 *   {@link ControllerRefManager} (adopt orphans, release what no longer matches).
 *
 * A first program:
 * ```ts
 * import { Controller, enqueueRequestForOwner, generationChangedPredicate, requestReconciler } from '@ctrlkit/runtime/controller';
 *
 * const controller = new Controller({
 *   name: 'greeting',
 *   reconcile: requestReconciler(async ({ namespace, name }) => {
 *     // read from listers, write to the API; throw to retry
 *   }),
 * })
 *   .watch<Greeting>(greetings, { predicates: [generationChangedPredicate()] })
 *   .watch(configMaps, { mapToKeys: enqueueRequestForOwner({ kind: 'Greeting', group }) });
 * await controller.run(signal); // or manager.add(controller)
 * ```
 *
 * @packageDocumentation
 */

export { CacheSyncTimeoutError } from './controller/cache-sync-timeout-error.js';
export { Controller, type WatchOptions } from './controller/controller.js';
export {
  type ControllerOptions,
  DEFAULT_CACHE_SYNC_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_RECONCILES,
} from './controller/controller-options.js';
export type {
  EventHandlers,
  EventSource,
  ObjectWithMetadata,
  TombstoneLike,
} from './controller/event-source.js';
export { enqueueRequestForOwner, type OwnerMatch, objectKey } from './controller/keys.js';
export type { ReconcileResult, Reconciler } from './controller/reconciler.js';
export { TerminalError } from './controller/terminal-error.js';
export {
  apiVersionOf,
  type GroupVersionKind,
  getControllerOf,
  isControlledBy,
  newControllerRef,
} from './controller-refs/controller-ref.js';
export {
  ControllerRefError,
  type ControllerRefErrorReason,
} from './controller-refs/controller-ref-error.js';
export {
  ControllerRefManager,
  type ControllerRefManagerOptions,
  KubernetesObjectMergePatcher,
  type MatchFunc,
  type MergePatcher,
  type ObjectAction,
  recheckDeletionTimestamp,
} from './controller-refs/controller-ref-manager.js';
export { enqueueRequestForObject, enqueueRequestsFromMapFunc } from './handler/enqueue.js';
export {
  PrometheusReconcileMetrics,
  RECONCILE_TIME_BUCKETS,
  type ReconcileMetrics,
  type ReconcileOutcome,
} from './metrics/reconcile-metrics.js';
export { AlreadyOwnedError } from './owner-references/already-owned-error.js';
export {
  hasControllerReference,
  hasOwnerReference,
  type OwnerReferenceOptions,
  removeControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './owner-references/owner-reference.js';
export {
  OwnerReferenceError,
  type OwnerReferenceErrorReason,
} from './owner-references/owner-reference-error.js';
export {
  and,
  annotationChangedPredicate,
  type CreateEvent,
  type DeleteEvent,
  type GenericEvent,
  generationChangedPredicate,
  labelChangedPredicate,
  labelSelectorPredicate,
  newPredicateFuncs,
  not,
  or,
  type Predicate,
  type PredicateFuncs,
  predicateFuncs,
  resourceVersionChangedPredicate,
  type UpdateEvent,
} from './predicate/predicate.js';
export {
  type Request,
  type RequestReconciler,
  requestForObject,
  requestFromKey,
  requestKey,
  requestReconciler,
} from './reconcile/request.js';
