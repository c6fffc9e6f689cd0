//! The error leader election throws for a use it cannot accept.

const marker = Symbol.for('@ctrlkit/runtime/LeaderElectionError');

/**
 * What went wrong: `AlreadyRunning` (`run` called twice), `LeaseLost` (a `Manager` stopped
 * because it could not renew its lease). An invalid option is not a `LeaderElectionError`
 * but the `InvalidArgumentError` every ctrlkit package throws.
 */
export type LeaderElectionErrorReason = 'AlreadyRunning' | 'LeaseLost';

/** Thrown by `run` when the elector is already running, and by `Manager.start` when the lease was lost. */
export class LeaderElectionError extends Error {
  /** What a program can branch on. */
  readonly reason: LeaderElectionErrorReason;
  readonly [marker] = true;

  constructor(reason: LeaderElectionErrorReason, message: string) {
    super(message);
    this.name = 'LeaderElectionError';
    this.reason = reason;
  }

  /** True for any LeaderElectionError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is LeaderElectionError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
