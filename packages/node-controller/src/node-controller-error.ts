//! The errors of the NodeController.

import { CtrlkitError } from '@ctrlkit/core';

/** What went wrong, for a program to branch on. */
export type NodeControllerErrorReason =
  /** The last ping of the provider failed, so the node status was not updated (the seed's `nodeNotReadyError`). */
  | 'NodeNotReady'
  /** The provider did not answer a ping within `pingTimeoutMs` (Go's `context.DeadlineExceeded`). */
  | 'PingTimeout'
  /** Creating the Node object failed. */
  | 'RegistrationFailed'
  /** `run` was called a second time. */
  | 'AlreadyRunning';

/** An error of the {@link NodeController}; `reason` says which. */
export class NodeControllerError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: NodeControllerErrorReason;

  constructor(reason: NodeControllerErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
