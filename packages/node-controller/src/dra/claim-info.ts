//! What the node side remembers of a claim it prepared (the kubelet's ClaimInfo), and which CDI devices each container gets from it.

import type { WireClaim, WireDevice } from '@ctrlkit/dra-kubeletplugin/protocol';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';

/** A claim being prepared or prepared on this node. */
export interface ClaimInfo {
  /** UID, namespace and name, as the plugins are called with. */
  readonly claim: WireClaim;
  /** The drivers of its allocated devices: each is called to prepare and to unprepare it. */
  readonly drivers: readonly string[];
  /** The devices every driver prepared; empty until `prepared`. */
  devices: WireDevice[];
  /** True once every driver prepared it. */
  prepared: boolean;
  /** UIDs of the pods it was prepared for. */
  readonly pods: Set<string>;
}

/** `namespace/name` of a claim. */
export function claimRef(claim: WireClaim): string {
  return `${claim.namespace}/${claim.name}`;
}

/** Whether a device serves `request` (a top-level request also covers its subrequests `request/sub`). */
function servesRequest(device: WireDevice, request: string | undefined): boolean {
  if (request === undefined || request === '') return true;
  return device.requestNames.some((r) => r === request || r.startsWith(`${request}/`));
}

/**
 * The CDI device IDs of each container (init containers too) of `pod`, by container name, from
 * its `resources.claims` (a claim entry's name, and optionally one request of it); containers
 * without any are left out. `claims` maps the pod's claim entry names to prepared claims.
 */
export function containerCdiDevices(
  pod: Wire<V1Pod>,
  claims: ReadonlyMap<string, ClaimInfo>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const container of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    const ids: string[] = [];
    for (const ref of container.resources?.claims ?? []) {
      for (const device of claims.get(ref.name)?.devices ?? []) {
        if (!servesRequest(device, ref.request)) continue;
        for (const id of device.cdiDeviceIds) if (!ids.includes(id)) ids.push(id);
      }
    }
    if (ids.length > 0) out[container.name] = ids;
  }
  return out;
}
