//! @ctrlkit/node-controller: virtual-kubelet's node package for TypeScript.

export { defaultRetryFunc, MaxRetries, type ShouldRetryFunc } from '@ctrlkit/workqueue';
export {
  ReasonFailedToReadMandatoryConfigMap,
  ReasonFailedToReadMandatorySecret,
  ReasonFailedToReadOptionalConfigMap,
  ReasonFailedToReadOptionalSecret,
  ReasonInvalidEnvironmentVariableNames,
  ReasonMandatoryConfigMapKeyNotFound,
  ReasonMandatoryConfigMapNotFound,
  ReasonMandatorySecretKeyNotFound,
  ReasonMandatorySecretNotFound,
  ReasonOptionalConfigMapKeyNotFound,
  ReasonOptionalConfigMapNotFound,
  ReasonOptionalSecretKeyNotFound,
  ReasonOptionalSecretNotFound,
} from './env-event-reasons.js';
export {
  asInvalidInput,
  asNotFound,
  ErrdefsError,
  type ErrdefsReason,
  invalidInput,
  isInvalidInput,
  notFound,
} from './errdefs.js';
export {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_RENEW_INTERVAL_FRACTION,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
  type ErrorHandler,
  NodeController,
  type NodeControllerOptions,
  type NodeLeaseOptions,
  type NodesClient,
  updateNodeStatus,
} from './node-controller.js';
export { NodeControllerError, type NodeControllerErrorReason } from './node-controller-error.js';
export {
  type LeasesClient,
  MAX_LEASE_UPDATE_ATTEMPTS,
  NODE_LEASE_NAMESPACE,
} from './node-lease.js';
export {
  NaiveNodeProvider,
  NaiveNodeProviderV2,
  type NodeProvider,
  newNaiveNodeProvider,
} from './node-provider.js';
export {
  LAST_APPLIED_NODE_STATUS_ANNOTATION,
  LAST_APPLIED_OBJECT_META_ANNOTATION,
} from './node-status-annotations.js';
export {
  type InformerLike,
  type KnownPod,
  POD_STATUS_UPDATE_POLL_ATTEMPTS,
  POD_STATUS_UPDATE_POLL_INTERVAL_MS,
  PodController,
  type PodControllerConfig,
  type PodEventFilterFunc,
  type PodsClient,
} from './pod-controller.js';
export {
  isPodNotifier,
  type PodLifecycleHandler,
  type PodNotifier,
} from './pod-lifecycle-handler.js';
