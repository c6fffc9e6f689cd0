//! Resolves a pod's claims to ResourceClaims (by name, or from the pod's status for claims made from templates) and checks that each is allocated and reserved for the pod.

import { errorMessage, isNotFound } from '@ctrlkit/core';
import type { Client, Wire } from '@ctrlkit/runtime/client';
import type { ResourceV1ResourceClaim, V1Pod } from '@kubernetes/client-node';
import { DraError } from './dra-error.js';

/** The claim resource of `resource.k8s.io/v1`. */
export const RESOURCE_CLAIMS = {
  group: 'resource.k8s.io',
  version: 'v1',
  resource: 'resourceclaims',
} as const;

/** One entry of `spec.resourceClaims`, with the ResourceClaim it stands for. */
export interface PodClaimName {
  /** The entry's name, which containers name in `resources.claims`. */
  readonly podClaimName: string;
  /** The ResourceClaim's name in the pod's namespace. */
  readonly claimName: string;
}

/** True when the pod has entries in `spec.resourceClaims`. */
export function hasResourceClaims(pod: Wire<V1Pod>): boolean {
  return (pod.spec?.resourceClaims?.length ?? 0) > 0;
}

/**
 * The ResourceClaim name of each entry of the pod's `spec.resourceClaims`, as the kubelet's
 * `resourceclaim.Name`: `resourceClaimName`, or for a template the name the resourceclaim
 * controller recorded in `status.resourceClaimStatuses`. An entry whose status says no claim
 * was needed is left out. Throws {@link DraError} `ClaimNotCreated` while a template's claim
 * is not recorded yet.
 */
export function podClaimNames(pod: Wire<V1Pod>): PodClaimName[] {
  const ns = pod.metadata?.namespace ?? '';
  const names: PodClaimName[] = [];
  for (const entry of pod.spec?.resourceClaims ?? []) {
    if (entry.resourceClaimName) {
      names.push({ podClaimName: entry.name, claimName: entry.resourceClaimName });
      continue;
    }
    const status = pod.status?.resourceClaimStatuses?.find((s) => s.name === entry.name);
    if (status === undefined) {
      throw new DraError(
        'ClaimNotCreated',
        `${ns}/${pod.metadata?.name ?? ''}#${entry.name}`,
        `the ResourceClaim of template ${JSON.stringify(entry.resourceClaimTemplateName ?? '')} is not created yet`,
      );
    }
    if (status.resourceClaimName)
      names.push({ podClaimName: entry.name, claimName: status.resourceClaimName });
  }
  return names;
}

/**
 * Reads the claim `namespace/name` and checks that it is allocated and that
 * `status.reservedFor` names the pod `podUid`. Throws {@link DraError}: `ClaimNotFound`,
 * `ClaimReadFailed`, `ClaimNotAllocated`, `ClaimNotReserved`.
 */
export async function readReservedClaim(
  client: Client,
  namespace: string,
  name: string,
  podUid: string,
): Promise<Wire<ResourceV1ResourceClaim>> {
  const ref = `${namespace}/${name}`;
  let claim: Wire<ResourceV1ResourceClaim>;
  try {
    claim = await client.get<ResourceV1ResourceClaim>(RESOURCE_CLAIMS, name, { namespace });
  } catch (error) {
    if (isNotFound(error)) throw new DraError('ClaimNotFound', ref, 'not found', { cause: error });
    throw new DraError('ClaimReadFailed', ref, `read failed: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (!claim.status?.allocation) throw new DraError('ClaimNotAllocated', ref, 'not allocated yet');
  if (!(claim.status.reservedFor ?? []).some((r) => r.uid === podUid)) {
    throw new DraError('ClaimNotReserved', ref, 'not reserved for the pod yet');
  }
  return claim;
}

/** The drivers of the claim's allocated devices, sorted, without repeats. */
export function claimDrivers(claim: Wire<ResourceV1ResourceClaim>): string[] {
  const results = claim.status?.allocation?.devices?.results ?? [];
  return [...new Set(results.map((r) => r.driver))].sort();
}
