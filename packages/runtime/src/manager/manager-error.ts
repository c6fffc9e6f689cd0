//! The error of a manager that cannot start or did not stop cleanly.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong: `AlreadyStarted` (`start` called twice, or `add` after `start`),
 * `ListenFailed` (an endpoint could not bind its address; `field` names the option),
 * `RunnableFailed` (a runnable rejected; `runnable` names it, `cause` is its error),
 * `GracefulShutdownTimeout` (runnables were still running when `gracefulShutdownTimeoutMs` ran out).
 */
export type ManagerErrorReason =
  | 'AlreadyStarted'
  | 'ListenFailed'
  | 'RunnableFailed'
  | 'GracefulShutdownTimeout';

/** Thrown by `Manager.add` and `Manager.start` (lease loss is a `LeaderElectionError`). */
export class ManagerError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: ManagerErrorReason;
  /** The runnable at fault, for `RunnableFailed`, and those still running for `GracefulShutdownTimeout`. */
  readonly runnable: string | undefined;
  /** The option at fault, for `ListenFailed`. */
  readonly field: string | undefined;

  constructor(
    reason: ManagerErrorReason,
    message: string,
    details: { runnable?: string; field?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.runnable = details.runnable;
    this.field = details.field;
  }
}
