//! Reads the claims of a NodePrepareResources call and checks each before the plugin sees it.

import { errorMessage, isNotFound, statusCode } from '@ctrlkit/core';
import { type Client, DEFAULT_BACKOFF, onError, type RetryBackoff } from '@ctrlkit/runtime/client';
import type { ResourceV1ResourceClaim } from '@kubernetes/client-node';
import { ClaimError } from '../claim-error.js';
import type { ResourceClaim } from '../dra-plugin.js';
import type { WireClaim } from '../kubelet-grpc.js';

/** The claim resource of `resource.k8s.io/v1`. */
const CLAIMS = { group: 'resource.k8s.io', version: 'v1', resource: 'resourceclaims' } as const;

/** A claim read and checked, or why not. */
export type CheckedClaim =
  | { readonly uid: string; readonly claim: ResourceClaim }
  | { readonly uid: string; readonly error: ClaimError };

/** Whether a failed read is worth another try: anything but a 4xx answer. */
function transient(error: unknown): boolean {
  const code = statusCode(error);
  return code === undefined || code >= 500 || code === 429;
}

/** Reads `wire` and checks its UID, allocation and driver (in that order). */
export async function checkClaim(
  client: Client,
  driverName: string,
  wire: WireClaim,
  backoff: RetryBackoff = DEFAULT_BACKOFF,
): Promise<CheckedClaim> {
  const ref = `${wire.namespace}/${wire.name}`;
  let claim: ResourceClaim;
  try {
    claim = await onError(backoff, transient, () =>
      client.get<ResourceV1ResourceClaim>(CLAIMS, wire.name, { namespace: wire.namespace }),
    );
  } catch (error) {
    const reason = isNotFound(error) ? 'ClaimNotFound' : 'ClaimReadFailed';
    const code = statusCode(error);
    const message = `retrieve claim: ${code === undefined ? '' : `HTTP ${code}: `}${errorMessage(error)}`;
    return { uid: wire.uid, error: new ClaimError(reason, ref, message, { cause: error }) };
  }
  const fail = (reason: ClaimError['reason'], message: string): CheckedClaim => ({
    uid: wire.uid,
    error: new ClaimError(reason, ref, message),
  });
  if (claim.metadata?.uid !== wire.uid) {
    return fail('ClaimReplaced', `got replaced (UID ${claim.metadata?.uid}, asked ${wire.uid})`);
  }
  const allocation = claim.status?.allocation;
  if (allocation === undefined || allocation === null)
    return fail('ClaimNotAllocated', 'not allocated');
  const results = allocation.devices?.results ?? [];
  if (!results.some((result) => result.driver === driverName)) {
    return fail('ClaimNotForDriver', `allocation has no device of driver ${driverName}`);
  }
  return { uid: wire.uid, claim };
}
