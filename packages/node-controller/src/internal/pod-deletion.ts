//! The `deletePodsFromKubernetes` queue (force-delete stopped pods from the API) and the start-up sweep of dangling provider pods.

import { isConflict, isNotFound } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { deepCopy } from './deep-copy.js';
import { isRunning, type PodControllerContext, podKey } from './pod-controller-context.js';

/** Handles a `ns/name/uid` key: force-deletes the pod of that UID from the API. */
export async function deletePodHandler(c: PodControllerContext, key: string): Promise<void> {
  const slash = key.lastIndexOf('/');
  const podKeyPart = key.slice(0, slash);
  const uid = key.slice(slash + 1);
  const [namespace = '', name = ''] = podKeyPart.split('/');
  const pod = c.pods.namespace(namespace).get(name);
  if (pod !== undefined && pod.metadata?.uid === uid) {
    if (isRunning(pod)) c.logger.info({ pod: podKeyPart }, 'force deleting pod in running state');
    try {
      await c.podClient.deleteNamespacedPod({
        name,
        namespace,
        gracePeriodSeconds: 0,
        // with a body the apiserver takes the options from it, so the grace period goes there too
        body: { gracePeriodSeconds: 0, preconditions: { uid } },
      });
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error)) throw error;
    }
  }
  c.syncWrapper?.clearDeleted(podKeyPart);
}

/** Deletes, with `workers` in parallel, the provider's pods that the API no longer has. */
export async function deleteDanglingPods(
  c: PodControllerContext,
  signal: AbortSignal,
  workers: number,
): Promise<void> {
  let providerPods: Wire<V1Pod>[];
  try {
    providerPods = await c.provider.getPods(signal);
  } catch (error) {
    c.logger.error({ err: error }, 'failed to fetch the list of pods from the provider');
    return;
  }
  const dangling = providerPods.filter(
    (p) => c.pods.namespace(p.metadata?.namespace ?? '').get(p.metadata?.name ?? '') === undefined,
  );
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < dangling.length) {
      const pod = dangling[next++] as Wire<V1Pod>;
      try {
        await c.provider.deletePod(signal, deepCopy(pod));
      } catch (error) {
        if (!isNotFound(error))
          c.logger.error({ err: error, pod: podKey(pod) }, 'failed to delete dangling pod');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, dangling.length) }, worker));
}
