//! The error leader election throws for a use it cannot accept.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong: `AlreadyRunning` (`run` called twice), `LeaseLost` (a `Manager` stopped
 * because it could not renew its lease). An invalid option is not a `LeaderElectionError`
 * but the `InvalidArgumentError` every ctrlkit package throws.
 */
export type LeaderElectionErrorReason = 'AlreadyRunning' | 'LeaseLost';

/** Thrown by `run` when the elector is already running, and by `Manager.start` when the lease was lost. */
export class LeaderElectionError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: LeaderElectionErrorReason;

  constructor(reason: LeaderElectionErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
