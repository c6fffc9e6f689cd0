//! A pod controller's configuration, what it remembers of each pod, and its timing constants (the seed's `PodControllerConfig`).

import type { Clock, Logger } from '@ctrlkit/core';
import type { ClientSource, Wire } from '@ctrlkit/runtime/client';
import type { EventRecorderLike } from '@ctrlkit/runtime/events';
import type { SharedIndexInformer } from '@ctrlkit/runtime/informers';
import type { MetricsProvider, ShouldRetryFunc, TypedRateLimiter } from '@ctrlkit/workqueue';
import type { V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import type { PodLifecycleHandler, PodResources } from './adapter.js';
import type { PodsClient } from './kube-clients.js';
import type { ProviderTimeoutError } from './provider-timeout-error.js';

/** How often a provider status update waits for the pod to be known, in ms (virtual-kubelet: 151 ms). */
export const POD_STATUS_UPDATE_POLL_INTERVAL_MS = 151;
/** How many times it waits before giving up. */
export const POD_STATUS_UPDATE_POLL_ATTEMPTS = 20;

/** What the controller needs of an informer; the runtime's `SharedIndexInformer` satisfies it. */
export type InformerLike<
  T extends Wire<V1Pod> | Wire<V1ConfigMap> | Wire<V1Secret> | Wire<V1Service>,
> = Pick<SharedIndexInformer<T>, 'indexer' | 'addEventHandler' | 'whenSynced'>;

/** Decides whether the controller handles an event for `pod` (the seed's `PodEventFilterFunc`); true to handle it. */
export type PodEventFilterFunc = (signal: AbortSignal, pod: Wire<V1Pod>) => boolean;

/**
 * Prepares what a pod needs from the node before the provider creates it (DRA claims:
 * `DraManager`). Throwing keeps the pod Pending: the controller records a Warning event
 * `FailedPrepareDynamicResources` with the error's message and retries with backoff.
 */
export interface PodResourcePreparer {
  /**
   * Prepares `pod`'s resources; called before each create of a pod with
   * `spec.resourceClaims`. `requeue` syncs the pod again soon, for a preparer that learns
   * when a missing piece arrived.
   */
  preparePod(signal: AbortSignal, pod: Wire<V1Pod>, requeue: () => void): Promise<PodResources>;
}

/** Configuration of `PodController` (the seed's `PodControllerConfig`). */
export interface PodControllerConfig {
  /** Writes pod statuses and deletes pods. Required. */
  podClient: PodsClient | ClientSource;
  /** Pods bound to this node (e.g. a field selector `spec.nodeName=<node>`). Required; started by the caller. */
  podInformer: InformerLike<Wire<V1Pod>>;
  /** Where pod events go. Required. */
  eventRecorder: EventRecorderLike;
  /** Runs the pods. Required. */
  provider: PodLifecycleHandler;
  /** For env resolution. Required. */
  configMapInformer: InformerLike<Wire<V1ConfigMap>>;
  /** For env resolution. Required. */
  secretInformer: InformerLike<Wire<V1Secret>>;
  /** For service link variables. Required. */
  serviceInformer: InformerLike<Wire<V1Service>>;
  /** Default: the workqueue's `defaultControllerRateLimiter()`. */
  syncPodsFromKubernetesRateLimiter?: TypedRateLimiter<string>;
  /** Default: the workqueue's `defaultRetryFunc` (20 tries). */
  syncPodsFromKubernetesShouldRetryFunc?: ShouldRetryFunc<string>;
  /** Default: `defaultControllerRateLimiter()`. */
  deletePodsFromKubernetesRateLimiter?: TypedRateLimiter<string>;
  /** Default: `defaultRetryFunc`. */
  deletePodsFromKubernetesShouldRetryFunc?: ShouldRetryFunc<string>;
  /** Default: `defaultControllerRateLimiter()`. */
  syncPodStatusFromProviderRateLimiter?: TypedRateLimiter<string>;
  /** Default: `defaultRetryFunc`. */
  syncPodStatusFromProviderShouldRetryFunc?: ShouldRetryFunc<string>;
  /** Filters informer events (add, update and delete). Default: every event is handled. */
  podEventFilterFunc?: PodEventFilterFunc;
  /**
   * Ms each provider call of the sync (`createPod`, `updatePod`, `deletePod`, `getPod`) may
   * take: then its signal aborts with a {@link ProviderTimeoutError}, the call is abandoned,
   * and the pod is handled as after a provider error (status `ProviderFailed`, a Warning
   * event, retried with backoff), so a hung provider does not hold a worker forever. Default:
   * no limit (as virtual-kubelet). `0` is rejected.
   */
  providerTimeoutMs?: number;
  /** Prepares pods with `spec.resourceClaims` before they are created. Default: none (they are created as is). */
  resourcePreparer?: PodResourcePreparer;
  /** Pass pods to the provider without resolving env (ConfigMaps, Secrets, field refs). Default false. */
  skipDownwardAPIResolution?: boolean;
  /** Where the queues' metrics go (queue names `syncPodsFromKubernetes`, ...). Default: the workqueue's global provider. */
  metricsProvider?: MetricsProvider;
  /** Default: the real clock. */
  clock?: Clock;
  /** Default: no logging. */
  logger?: Logger;
}

/** What the controller remembers of a pod (the seed's `knownPod`). */
export interface KnownPod {
  /** The last pod the provider reported. */
  lastPodStatusReceivedFromProvider?: Wire<V1Pod>;
  /** The last pod successfully synced to the provider. */
  lastPodUsed?: Wire<V1Pod>;
  /** True when the last provider report was skipped as unchanged. */
  lastPodStatusUpdateSkipped: boolean;
}
