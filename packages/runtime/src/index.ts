//! @ctrlkit/runtime: informers, the controller loop, leader election, events, controller references, CRDs from TypeBox schemas, and the command line of a controller program.

export {
  type Clock,
  InvalidArgumentError,
  isConflict,
  isNotFound,
  type Logger,
  noopLogger,
  realClock,
  type Timer,
} from '@ctrlkit/core';
export { type ApplyOptions, apply, applyStatus } from './apply/apply.js';
export { type PatchStatusOptions, patchStatus } from './apply/patch-status.js';
export {
  type FlagSpec,
  type FlagTable,
  type FlagType,
  type FlagValues,
  type FlagValueTypes,
  flagUsage,
  parseFlagTable,
  parseFlagTableWithArgs,
  type UsageOptions,
} from './cli/flags.js';
export { type MainIo, type MainProgram, runMain } from './cli/main.js';
export {
  ApiClientFactory,
  type ApiClientFactoryOptions,
  DEFAULT_BURST,
  DEFAULT_QPS,
  DEFAULT_USER_AGENT,
} from './client/api-client-factory.js';
export { KubeConfigError, type KubeConfigErrorReason } from './client/kube-config-error.js';
export {
  type LoadKubeConfigOptions,
  loadKubeConfig,
  SERVICE_ACCOUNT_DIR,
} from './client/load-kube-config.js';
export { CacheSyncTimeoutError } from './controller/cache-sync-timeout-error.js';
export {
  Controller,
  type ControllerOptions,
  DEFAULT_CACHE_SYNC_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_RECONCILES,
  type ReconcileResult,
  type Reconciler,
  type WatchOptions,
} from './controller/controller.js';
export type {
  EventHandlers,
  EventSource,
  ObjectWithMetadata,
  TombstoneLike,
} from './controller/event-source.js';
export { enqueueRequestForOwner, type OwnerMatch, objectKey } from './controller/keys.js';
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
export {
  type CustomResource,
  type CustomResourceDefinitionOptions,
  type CustomResourceNames,
  type CustomResourceScope,
  type CustomResourceSubresources,
  type CustomResourceVersion,
  customResourceDefinition,
  DEFAULT_CUSTOM_RESOURCE_SCOPE,
  type PrinterColumn,
} from './crd/custom-resource-definition.js';
export {
  checkManifests,
  type RenderManifestsOptions,
  renderManifests,
  writeManifests,
} from './crd/manifests.js';
export {
  ManifestsOutdatedError,
  type ManifestsOutdatedErrorReason,
} from './crd/manifests-outdated-error.js';
export { type StructuralSchema, structuralSchema } from './crd/structural-schema.js';
export {
  COMBINED_PREFIX,
  type CorrelationResult,
  DEFAULT_AGGREGATION_WINDOW_MS,
  DEFAULT_LRU_CACHE_ENTRIES,
  DEFAULT_MAX_SIMILAR_EVENTS,
  DEFAULT_SIMILAR_EVENTS_WINDOW_MS,
  DEFAULT_SPAM_BURST,
  DEFAULT_SPAM_QPS,
  EventCorrelator,
  type EventCorrelatorOptions,
  getAggregateKey,
  getEventKey,
  getSpamKey,
} from './events/event-correlator.js';
export {
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_TRIES_PER_EVENT,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  EventRecorder,
  type EventRecorderLike,
  type EventRecorderOptions,
  type EventSubject,
  type EventType,
} from './events/event-recorder.js';
export { CoreV1EventSink, type EventSink } from './events/event-sink.js';
export { type FinalizerEvent, finalizer } from './finalizer/finalizer.js';
export { FinalizerError, type FinalizerErrorReason } from './finalizer/finalizer-error.js';
export { addFinalizer, containsFinalizer, removeFinalizer } from './finalizer/finalizers.js';
export { enqueueRequestForObject, enqueueRequestsFromMapFunc } from './handler/enqueue.js';
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
export { type ApiStatus, ApiStatusError } from './informers/errors/api-status-error.js';
export { InformerError, type InformerErrorReason } from './informers/errors/informer-error.js';
export { ResourceExpiredError } from './informers/errors/resource-expired-error.js';
export { WatchStreamError } from './informers/errors/watch-stream-error.js';
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
  type ObjectList,
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
  type ReflectorOptions,
  type ReflectorSink,
  WATCH_IDLE_TIMEOUT_MS,
} from './informers/reflector.js';
export {
  formatGroupVersionResource,
  type GroupVersionResource,
  type ResourceLike,
  toGroupVersionResource,
} from './informers/resource.js';
export {
  DEFAULT_LIST_IDLE_TIMEOUT_MS,
  IDLE_CONNECTION_TIMEOUT_MS,
  RestClient,
  type RestClientOptions,
  type RestMethod,
  type RestRequestInfo,
} from './informers/rest-client.js';
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
export type {
  ClientSource,
  JsonPatchOperation,
  ObjectWriter,
  PatchRequest,
} from './internal/object-client.js';
export {
  LeaderElectionError,
  type LeaderElectionErrorReason,
} from './leader-election/leader-election-error.js';
export {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  JITTER_FACTOR,
  type LeaderCallbacks,
  LeaderElector,
  type LeaderElectorOptions,
} from './leader-election/leader-elector.js';
export {
  formatMicroTime,
  LeaseLock,
  type LeaseLockEventRecorder,
  type LeaseLockOptions,
} from './leader-election/lease-lock.js';
export type {
  LeaderElectionRecord,
  ObservedRecord,
  ResourceLock,
} from './leader-election/resource-lock.js';
export type { HealthCheck } from './manager/health-probes.js';
export { Manager, type Runnable } from './manager/manager.js';
export { ManagerError, type ManagerErrorReason } from './manager/manager-error.js';
export {
  DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
  DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS,
  DEFAULT_METRICS_BIND_ADDRESS,
  type ManagerLeaderElectionOptions,
  type ManagerOptions,
} from './manager/manager-options.js';
export { type SignalTarget, setupSignalHandler } from './manager/signals.js';
export { PrometheusLeaderElectionMetrics } from './metrics/leader-election-metrics.js';
export {
  PrometheusReconcileMetrics,
  RECONCILE_TIME_BUCKETS,
  type ReconcileMetrics,
  type ReconcileOutcome,
} from './metrics/reconcile-metrics.js';
export {
  PrometheusRestClientMetrics,
  REST_CLIENT_DURATION_BUCKETS,
  type RestClientMetrics,
} from './metrics/rest-client-metrics.js';
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
export {
  DEFAULT_BACKOFF,
  DEFAULT_RETRY,
  onError,
  type RetryBackoff,
  type RetryOptions,
  retryOnConflict,
} from './retry/retry-on-conflict.js';
