//! The error controller-reference helpers throw or report.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong:
 * - `CannotAdopt`: the `canAdopt` check failed (e.g. the owner is being deleted); `cause` says why;
 * - `RecheckFailed`: `recheckDeletionTimestamp` could not read the owner;
 * - `OwnerDeleting`: the fresh owner has a deletionTimestamp;
 * - `ClaimFailed`: some adopt/release patches of a batch failed; `errors` holds each, `claimed`
 *   what was claimed anyway.
 *
 * A missing or malformed option or argument is not a `ControllerRefError` but the
 * `InvalidArgumentError` every ctrlkit package throws.
 */
export type ControllerRefErrorReason =
  | 'CannotAdopt'
  | 'RecheckFailed'
  | 'OwnerDeleting'
  | 'ClaimFailed';

/** The error of the controller-reference helpers; `reason` tells which failure it is. */
export class ControllerRefError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: ControllerRefErrorReason;
  /** For `ClaimFailed`: the error of each object that failed. */
  readonly errors: readonly unknown[];
  /** For `ClaimFailed`: the objects claimed despite the failures. */
  readonly claimed: readonly unknown[];

  constructor(
    reason: ControllerRefErrorReason,
    message: string,
    options: { cause?: unknown; errors?: unknown[]; claimed?: unknown[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.errors = options.errors ?? [];
    this.claimed = options.claimed ?? [];
  }
}
