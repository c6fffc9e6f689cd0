//! What the pod controller's three queue handlers share: the caches, the provider, the queues and the known pods.

import type { Clock, Logger } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { EventRecorderLike } from '@ctrlkit/runtime/events';
import type { Lister } from '@ctrlkit/runtime/informers';
import type { TypedRateLimitingInterface } from '@ctrlkit/workqueue';
import type { V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import type { PodLifecycleHandler, PodNotifier } from '../adapter.js';
import type { PodsClient } from '../kube-clients.js';
import type { KnownPod, PodControllerConfig } from '../pod-controller-config.js';
import type { SyncProviderWrapper } from './sync-provider-wrapper.js';

/** The pod controller's state, handed to each queue's handlers. */
export interface PodControllerContext {
  readonly config: PodControllerConfig;
  /** Writes pod statuses and deletes pods (`config.podClient`, on the runtime's client when it is one). */
  readonly podClient: PodsClient;
  /** The provider, or the polling wrapper around one that does not notify. */
  readonly provider: PodLifecycleHandler & Partial<PodNotifier>;
  /** The polling wrapper, when the provider does not notify. */
  readonly syncWrapper: SyncProviderWrapper | undefined;
  readonly pods: Lister<Wire<V1Pod>>;
  readonly configMaps: Lister<Wire<V1ConfigMap>>;
  readonly secrets: Lister<Wire<V1Secret>>;
  readonly services: Lister<Wire<V1Service>>;
  readonly recorder: EventRecorderLike;
  readonly clock: Clock;
  /** The clock's time as a Date. */
  readonly wallTime: () => Date;
  readonly logger: Logger;
  /** What the controller remembers of each pod, by `ns/name`. */
  readonly knownPods: Map<string, KnownPod>;
  /** `syncPodsFromKubernetes`: `ns/name` keys. */
  readonly syncQueue: TypedRateLimitingInterface<string>;
  /** `deletePodsFromKubernetes`: `ns/name/uid` keys. */
  readonly deleteQueue: TypedRateLimitingInterface<string>;
  /** `syncPodStatusFromProvider`: `ns/name` keys. */
  readonly statusQueue: TypedRateLimitingInterface<string>;
  /** The signal `run` was given. */
  signal: AbortSignal;
}

/** A pod's `ns/name` key. */
export function podKey(pod: Wire<V1Pod>): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** As the kubelet's `running`: true unless every container is terminated or waiting. */
export function isRunning(pod: Wire<V1Pod>): boolean {
  return (pod.status?.containerStatuses ?? []).some(
    (cs) => !cs.state?.terminated && !cs.state?.waiting,
  );
}
