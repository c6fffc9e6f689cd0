//! KubeVirt's pod readiness rule for handing a virt-launcher pod over to virt-handler.

import type { V1Pod } from '@kubernetes/client-node';

/** The container that runs the VM in a virt-launcher pod. */
export const COMPUTE_CONTAINER = 'compute';
/** The Istio sidecar, not ready until a Service points at the pod. */
export const ISTIO_PROXY_CONTAINER = 'istio-proxy';

/** The pod ended (`Succeeded` or `Failed`). */
export function podIsDown(pod: V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** The pod ended, its compute container terminated, or it is being deleted. */
export function isPodDownOrGoingDown(pod: V1Pod): boolean {
  const compute = pod.status?.containerStatuses?.find((c) => c.name === COMPUTE_CONTAINER);
  return (
    podIsDown(pod) ||
    compute?.state?.terminated !== undefined ||
    (pod.metadata?.deletionTimestamp ?? undefined) !== undefined
  );
}

/**
 * Whether the pod can be handed over to virt-handler (KubeVirt's `IsPodReady`): it is
 * `Running`, not down or going down, and every container but the compute container is
 * ready. The compute container (whose readiness probe is the VM's) and the Istio proxy only
 * need to be running.
 */
export function isPodReady(pod: V1Pod): boolean {
  if (isPodDownOrGoingDown(pod)) return false;
  for (const status of pod.status?.containerStatuses ?? []) {
    if (status.name === COMPUTE_CONTAINER || status.name === ISTIO_PROXY_CONTAINER) {
      if (status.state?.running === undefined) return false;
    } else if (!status.ready) {
      return false;
    }
  }
  return pod.status?.phase === 'Running';
}
