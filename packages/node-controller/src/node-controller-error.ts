//! The errors of the NodeController.

const marker = Symbol.for('@ctrlkit/node-controller/NodeControllerError');

/** What went wrong, for a program to branch on. */
export type NodeControllerErrorReason =
  /** Node lease options were given more than once (the seed's `ErrConflictingLeaseControllerConfiguration`). */
  | 'ConflictingLeaseControllerConfiguration'
  /** The last ping of the provider failed, so the node status was not updated (the seed's `nodeNotReadyError`). */
  | 'NodeNotReady'
  /** The provider did not answer a ping within `pingTimeoutMs` (Go's `context.DeadlineExceeded`). */
  | 'PingTimeout'
  /** Creating the Node object failed. */
  | 'RegistrationFailed'
  /** `run` was called a second time. */
  | 'AlreadyRunning';

/** The message of the seed's `ErrConflictingLeaseControllerConfiguration`. */
export const CONFLICTING_LEASE_CONFIGURATION_MESSAGE =
  'Multiple, conflicting lease configurations have been put into place';

/** An error of the {@link NodeController}; `reason` says which. */
export class NodeControllerError extends Error {
  /** What a program can branch on. */
  readonly reason: NodeControllerErrorReason;
  readonly [marker] = true;

  constructor(reason: NodeControllerErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NodeControllerError';
    this.reason = reason;
  }

  /** True for any NodeControllerError (of this `reason`, when given), also from another copy of this package. */
  static isInstance(
    value: unknown,
    reason?: NodeControllerErrorReason,
  ): value is NodeControllerError {
    return (
      typeof value === 'object' &&
      value !== null &&
      marker in value &&
      (reason === undefined || (value as NodeControllerError).reason === reason)
    );
  }
}
