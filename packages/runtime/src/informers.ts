/**
 * `@ctrlkit/runtime/informers`: client-go's `tools/cache`, an in-memory cache of Kubernetes
 * objects that tells handlers what changed.
 *
 * - **Shared informers**: {@link SharedInformerFactory} (one informer per resource and
 *   options, `forResource`, `lister`, `start`, `waitForCacheSync`; a `Manager` owns one as
 *   `manager.informerFactory`), {@link SharedIndexInformer}, {@link waitForCacheSync}.
 * - **Reading the cache**: {@link Indexer} (with {@link Indexers} such as
 *   {@link metaNamespaceIndexFunc}), {@link newLister} / {@link Lister}, label selectors
 *   ({@link toLabelMatcher}).
 * - **Keys**: {@link metaNamespaceKeyFunc}, {@link splitMetaNamespaceKey},
 *   {@link deletionHandlingMetaNamespaceKeyFunc} and the tombstone
 *   {@link DeletedFinalStateUnknown}.
 * - **Underneath**: {@link Reflector} (LIST then WATCH, streaming lists, backoff with
 *   {@link Backoff}), {@link newListWatch} / {@link ListWatch}, resources by name
 *   ({@link ResourceLike}, {@link toGroupVersionResource}, {@link discoverResource}),
 *   transforms ({@link dropManagedFields}).
 * - **Errors**: {@link InformerError}, {@link ResourceExpiredError}, {@link WatchStreamError}
 *   (the API's own errors are `ApiStatusError`, in `@ctrlkit/runtime/client`).
 *
 * An in-memory `ListWatch` for unit tests is `FakeListWatch`, in `@ctrlkit/runtime/testing`.
 *
 * A first program:
 * ```ts
 * import { SharedInformerFactory } from '@ctrlkit/runtime/informers';
 * import type { V1ConfigMap } from '@kubernetes/client-node';
 *
 * const factory = new SharedInformerFactory(kubeConfig);
 * factory.forResource<V1ConfigMap>('v1/configmaps').addEventHandler({
 *   onAdd: (cm) => console.log('added', cm.metadata?.name),
 * });
 * factory.start(signal);
 * await factory.waitForCacheSync(signal);
 * console.log(factory.lister<V1ConfigMap>('v1/configmaps').namespace('default').list());
 * ```
 *
 * @packageDocumentation
 */

export {
  formatGroupVersionResource,
  type GroupVersionResource,
  InformerError,
  type InformerErrorReason,
  type ObjectList,
  ResourceExpiredError,
  type ResourceLike,
  toGroupVersionResource,
  WatchStreamError,
} from '@ctrlkit/client';
export {
  Backoff,
  type BackoffOptions,
  DEFAULT_BACKOFF_FACTOR,
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_JITTER,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_BACKOFF_RESET_MS,
} from './informers/backoff.js';
export { type DiscoveredResource, discoverResource } from './informers/discovery.js';
export {
  DeletedFinalStateUnknown,
  deletionHandlingMetaNamespaceKeyFunc,
  type KeyFunc,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
} from './informers/key-func.js';
export {
  type LabelMatcher,
  type LabelSelectorLike,
  toLabelMatcher,
} from './informers/label-selector.js';
export {
  ACCEPT_JSON,
  ACCEPT_METADATA,
  ACCEPT_METADATA_LIST,
  type ListRequestOptions,
  type ListWatch,
  type ListWatchOptions,
  newListWatch,
  newListWatchFromClient,
  type WatchEvent,
  type WatchRequestOptions,
} from './informers/list-watch.js';
export { type Lister, type NamespaceLister, newLister } from './informers/lister.js';
export {
  DEFAULT_INITIAL_LIST_MODE,
  DEFAULT_MIN_WATCH_TIMEOUT_MS,
  DEFAULT_PAGE_SIZE,
  INITIAL_EVENTS_END_ANNOTATION,
  type InitialListMode,
  Reflector,
  type ReflectorHealth,
  type ReflectorOptions,
  type ReflectorSink,
  WATCH_TIMEOUT_GRACE_MS,
  type WatchState,
} from './informers/reflector.js';
export {
  type HandlerOptions,
  MINIMUM_RESYNC_PERIOD_MS,
  type ResourceEventHandler,
  type ResourceEventHandlerRegistration,
  SharedIndexInformer,
  type SharedIndexInformerOptions,
  SYNC_POLL_PERIOD_MS,
  type Syncable,
  waitForCacheSync,
} from './informers/shared-informer.js';
export {
  type InformerForOptions,
  type ResourceCacheOptions,
  SharedInformerFactory,
  type SharedInformerFactoryOptions,
} from './informers/shared-informer-factory.js';
export {
  Indexer,
  type IndexerOptions,
  type Indexers,
  type IndexFunc,
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
} from './informers/store.js';
export { dropManagedFields, type TransformFunc } from './informers/transform.js';
