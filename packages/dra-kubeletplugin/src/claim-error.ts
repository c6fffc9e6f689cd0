//! The per-claim error of a NodePrepareResources call that the helper's checks produce.

import { CtrlkitError } from '@ctrlkit/core';

/** Why a claim was not handed to the plugin. */
export type ClaimErrorReason =
  | 'ClaimNotFound'
  | 'ClaimReplaced'
  | 'ClaimNotAllocated'
  | 'ClaimNotForDriver'
  | 'ClaimReadFailed';

/**
 * A claim the kubelet asked to prepare failed the helper's checks: it could not be read
 * (`ClaimNotFound`, `ClaimReadFailed` after retries), has another UID than asked
 * (`ClaimReplaced`), has no allocation (`ClaimNotAllocated`), or its allocation has no
 * device of this driver (`ClaimNotForDriver`). Its message goes into that claim's `error`
 * in the response; the other claims of the call go on.
 */
export class ClaimError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: ClaimErrorReason;
  /** `namespace/name` of the claim. */
  readonly claim: string;

  constructor(
    reason: ClaimErrorReason,
    claim: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`claim ${claim}: ${message}`, options);
    this.reason = reason;
    this.claim = claim;
  }
}
