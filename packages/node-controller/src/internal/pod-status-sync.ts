//! The `syncPodStatusFromProvider` queue: write the statuses the provider reports to the API.

import { isNotFound, sleep } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import {
  type KnownPod,
  POD_STATUS_UPDATE_POLL_ATTEMPTS,
  POD_STATUS_UPDATE_POLL_INTERVAL_MS,
} from '../pod-controller-config.js';
import { isRunning, type PodControllerContext, podKey } from './pod-controller-context.js';
import { sameJson } from './pod-equality.js';
import { isTerminal } from './sync-provider-wrapper.js';

/**
 * Takes a pod the provider reported: waits (up to {@link POD_STATUS_UPDATE_POLL_ATTEMPTS}
 * polls) for the controller to know it, skips it when unchanged, else queues a status sync.
 */
export async function enqueuePodStatusUpdate(
  c: PodControllerContext,
  pod: Wire<V1Pod>,
): Promise<void> {
  const key = podKey(pod);
  const namespace = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  let record: KnownPod | undefined;
  for (let attempt = 0; ; attempt++) {
    if (c.pods.namespace(namespace).get(name) === undefined) return;
    record = c.knownPods.get(key);
    if (record !== undefined || attempt >= POD_STATUS_UPDATE_POLL_ATTEMPTS || c.signal.aborted)
      break;
    await sleep(c.clock, POD_STATUS_UPDATE_POLL_INTERVAL_MS, c.signal);
  }
  if (record === undefined) {
    c.logger.warn(
      { pod: key },
      'pod status update from provider for a pod not known to the controller',
    );
    return;
  }
  const last = record.lastPodStatusReceivedFromProvider;
  if (last !== undefined && sameJson(last, pod)) {
    record.lastPodStatusUpdateSkipped = true;
    return;
  }
  record.lastPodStatusReceivedFromProvider = pod;
  record.lastPodStatusUpdateSkipped = false;
  c.statusQueue.addRateLimited(key);
}

/** Handles a `ns/name` key: writes the provider's last status of the pod to the API. */
export async function podStatusHandler(c: PodControllerContext, key: string): Promise<void> {
  const [namespace = '', name = ''] = key.split('/');
  const pod = c.pods.namespace(namespace).get(name);
  if (pod === undefined) return;
  await updatePodStatus(c, pod, key);
}

async function updatePodStatus(
  c: PodControllerContext,
  pod: Wire<V1Pod>,
  key: string,
): Promise<void> {
  if (isTerminal(pod)) return;
  const record = c.knownPods.get(key);
  const last = record?.lastPodStatusReceivedFromProvider;
  if (last === undefined) return;
  // Only `metadata` is replaced below: a shallow copy leaves the record's pod as it is.
  const providerPod = { ...last };
  if (
    providerPod.metadata?.deletionTimestamp &&
    !pod.metadata?.deletionTimestamp &&
    sameJson(providerPod.status, pod.status)
  ) {
    await deleteAsProviderDid(c, pod, providerPod);
    return;
  }
  providerPod.metadata = {
    ...providerPod.metadata,
    resourceVersion: pod.metadata?.resourceVersion,
  };
  try {
    await c.podClient.replaceNamespacedPodStatus({
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
      body: providerPod,
    });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  // The API now knows the pod stopped: a pod being deleted can go at once.
  if (pod.metadata?.deletionTimestamp && !isRunning(providerPod)) {
    c.deleteQueue.add(`${key}/${pod.metadata?.uid ?? ''}`);
  }
}

/** The provider deleted the pod: deletes it from the API with the grace period left. */
async function deleteAsProviderDid(
  c: PodControllerContext,
  pod: Wire<V1Pod>,
  providerPod: Wire<V1Pod>,
): Promise<void> {
  const metadata = providerPod.metadata ?? {};
  const at = new Date(metadata.deletionTimestamp as Date | string).getTime();
  const grace = at <= c.wallTime().getTime() ? 0 : (metadata.deletionGracePeriodSeconds ?? 0);
  try {
    await c.podClient.deleteNamespacedPod({
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
      gracePeriodSeconds: grace,
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
