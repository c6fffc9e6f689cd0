//! The errors of the node's DRA side: why a pod's claims are not prepared, or a claim not unprepared.

import { CtrlkitError } from '@ctrlkit/core';

/** The event reason (Warning) when a pod's claims cannot be prepared, as the kubelet's. */
export const ReasonFailedPrepareDynamicResources = 'FailedPrepareDynamicResources';

/** Why a claim of a pod is not ready for its containers, or could not be unprepared. */
export type DraErrorReason =
  /** A claim from a template has no ResourceClaim yet (`status.resourceClaimStatuses`). */
  | 'ClaimNotCreated'
  /** The ResourceClaim does not exist. */
  | 'ClaimNotFound'
  /** Reading the ResourceClaim failed (after the client's retries). */
  | 'ClaimReadFailed'
  /** The claim has no allocation yet. */
  | 'ClaimNotAllocated'
  /** The claim is allocated but `status.reservedFor` does not name the pod. */
  | 'ClaimNotReserved'
  /** No plugin of the claim's driver is registered on the node. */
  | 'DriverNotRegistered'
  /** `NodePrepareResources` failed, for the whole call or for this claim. */
  | 'PrepareFailed'
  /** `NodeUnprepareResources` failed, for the whole call or for this claim. */
  | 'UnprepareFailed';

/**
 * An error of the node's DRA side; `reason` says which, `claim` names the claim
 * (`namespace/name`, or the pod's claim entry when the ResourceClaim is not known yet).
 */
export class DraError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: DraErrorReason;
  /** `namespace/name` of the claim. */
  readonly claim: string;
  /** The driver, for `DriverNotRegistered`, `PrepareFailed` and `UnprepareFailed`. */
  readonly driver: string | undefined;

  constructor(
    reason: DraErrorReason,
    claim: string,
    message: string,
    options?: { cause?: unknown; driver?: string },
  ) {
    super(`claim ${claim}: ${message}`, options);
    this.reason = reason;
    this.claim = claim;
    this.driver = options?.driver;
  }
}
