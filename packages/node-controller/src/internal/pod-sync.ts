//! The `syncPodsFromKubernetes` queue: create, update and delete each pod in the provider.

import { errorMessage, isNotFound } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import type { PodResources } from '../adapter.js';
import { ReasonFailedPrepareDynamicResources } from '../dra/dra-error.js';
import { deepCopy } from './deep-copy.js';
import { populateEnvironmentVariables } from './env.js';
import { isRunning, type PodControllerContext, podKey } from './pod-controller-context.js';
import { podsEffectivelyEqual, podsEqual, sortEnv } from './pod-equality.js';
import { callProvider } from './provider-call.js';
import { isTerminal } from './sync-provider-wrapper.js';

/** Handles a `ns/name` key: syncs the pod to the provider, or deletes a pod the API no longer has. */
export async function syncPodHandler(c: PodControllerContext, key: string): Promise<void> {
  const parts = key.split('/');
  if (parts.length !== 2) {
    c.logger.error({ key }, 'invalid resource key');
    return;
  }
  const [namespace = '', name = ''] = parts;
  const pod = c.pods.namespace(namespace).get(name);
  if (pod === undefined) {
    let providerPod: Wire<V1Pod> | undefined;
    try {
      providerPod = await callProvider(c, 'getPod', (signal) =>
        c.provider.getPod(signal, namespace, name),
      );
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    if (providerPod === undefined) return;
    try {
      const found = providerPod;
      await callProvider(c, 'deletePod', (signal) => c.provider.deletePod(signal, found));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    return;
  }
  await syncPodInProvider(c, key, pod);
}

async function syncPodInProvider(
  c: PodControllerContext,
  key: string,
  pod: Wire<V1Pod>,
): Promise<void> {
  const deleting =
    pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  if (deleting && !isRunning(pod)) {
    // No container runs any more: force-delete it from the API now.
    c.deleteQueue.add(`${key}/${pod.metadata?.uid ?? ''}`);
    return;
  }
  const record = c.knownPods.get(key);
  if (record === undefined) return;
  if (record.lastPodUsed !== undefined && podsEffectivelyEqual(record.lastPodUsed, pod)) return;
  if (deleting) {
    await deletePodInProvider(c, pod);
    const graceMs = (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
    c.deleteQueue.addAfter(`${key}/${pod.metadata?.uid ?? ''}`, graceMs);
  } else if (!isTerminal(pod)) {
    await createOrUpdatePod(c, pod);
  }
  record.lastPodUsed = pod;
}

async function deletePodInProvider(c: PodControllerContext, pod: Wire<V1Pod>): Promise<void> {
  try {
    await callProvider(c, 'deletePod', (signal) => c.provider.deletePod(signal, deepCopy(pod)));
  } catch (error) {
    if (isNotFound(error)) {
      c.logger.debug({ pod: podKey(pod) }, 'pod not found in provider');
      return;
    }
    c.recorder.event(
      pod,
      'Warning',
      'ProviderDeleteFailed',
      `Delete pod in provider failed: ${errorMessage(error)}`,
    );
    throw error;
  }
  c.recorder.event(pod, 'Normal', 'ProviderDeleteSuccess', 'Delete pod in provider successfully');
}

async function createOrUpdatePod(c: PodControllerContext, pod: Wire<V1Pod>): Promise<void> {
  const resolved = deepCopy(pod);
  if (c.config.skipDownwardAPIResolution !== true) resolveEnvironment(c, resolved);
  let existing: Wire<V1Pod> | undefined;
  try {
    existing = await callProvider(c, 'getPod', (signal) =>
      c.provider.getPod(signal, pod.metadata?.namespace ?? '', pod.metadata?.name ?? ''),
    );
  } catch {
    existing = undefined;
  }
  if (existing !== undefined) {
    if (podsEqual(existing, resolved)) return;
    try {
      await callProvider(c, 'updatePod', (signal) => c.provider.updatePod(signal, resolved));
    } catch (error) {
      await handleProviderError(c, pod, error, 'ProviderUpdateFailed');
      throw error;
    }
    c.recorder.event(pod, 'Normal', 'ProviderUpdateSuccess', 'Update pod in provider successfully');
    return;
  }
  const resources = await prepareResources(c, pod);
  try {
    await callProvider(c, 'createPod', (signal) =>
      resources === undefined
        ? c.provider.createPod(signal, resolved)
        : c.provider.createPod(signal, resolved, resources),
    );
  } catch (error) {
    await handleProviderError(c, pod, error, 'ProviderCreateFailed');
    throw error;
  }
  c.recorder.event(pod, 'Normal', 'ProviderCreateSuccess', 'Create pod in provider successfully');
}

/**
 * Prepares the pod's DRA claims with the configured preparer (none, or no claims: undefined).
 * On failure the pod stays Pending: a Warning event names the claim and the reason, and the
 * error goes back to the queue, which retries with backoff.
 */
async function prepareResources(
  c: PodControllerContext,
  pod: Wire<V1Pod>,
): Promise<PodResources | undefined> {
  const preparer = c.config.resourcePreparer;
  if (preparer === undefined || (pod.spec?.resourceClaims?.length ?? 0) === 0) return undefined;
  const key = podKey(pod);
  try {
    return await preparer.preparePod(c.signal, pod, () => c.syncQueue.add(key));
  } catch (error) {
    c.recorder.event(
      pod,
      'Warning',
      ReasonFailedPrepareDynamicResources,
      `Failed to prepare dynamic resources: ${errorMessage(error)}`,
    );
    throw error;
  }
}

/** Resolves the pod's env (ConfigMaps, Secrets, field refs, service links) in place, sorted. */
function resolveEnvironment(c: PodControllerContext, resolved: Wire<V1Pod>): void {
  populateEnvironmentVariables(resolved, {
    configMaps: c.configMaps,
    secrets: c.secrets,
    services: c.services,
    recorder: c.recorder,
  });
  for (const container of [
    ...(resolved.spec?.initContainers ?? []),
    ...(resolved.spec?.containers ?? []),
  ]) {
    if (container.env !== undefined) container.env = sortEnv(container.env);
  }
}

/** Marks the pod ProviderFailed in the API (Failed with `restartPolicy: Never`) and records `reason`. */
async function handleProviderError(
  c: PodControllerContext,
  pod: Wire<V1Pod>,
  error: unknown,
  reason: string,
): Promise<void> {
  const failed = deepCopy(pod);
  failed.status ??= {};
  const status = failed.status;
  status.phase = pod.spec?.restartPolicy === 'Never' ? 'Failed' : 'Pending';
  status.reason = 'ProviderFailed';
  status.message = errorMessage(error);
  failed.metadata = { ...failed.metadata, resourceVersion: '' };
  try {
    await c.podClient.replaceNamespacedPodStatus({
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
      body: failed,
    });
  } catch (updateError) {
    c.logger.warn(
      { err: updateError, pod: podKey(pod) },
      'failed to update pod status after provider error',
    );
  }
  c.recorder.event(pod, 'Warning', reason, errorMessage(error));
}
