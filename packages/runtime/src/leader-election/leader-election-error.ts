//! The error leader election throws for a configuration or use it cannot accept.

const marker = Symbol.for('@ctrlkit/runtime/LeaderElectionError');

/**
 * What went wrong: `InvalidConfig` (an option is out of range), `AlreadyRunning` (`run`
 * called twice), `LeaseLost` (a `Manager` stopped because it could not renew its lease).
 */
export type LeaderElectionErrorReason = 'InvalidConfig' | 'AlreadyRunning' | 'LeaseLost';

/**
 * Thrown by `new LeaderElector(...)` when an option is invalid (`field` names it, e.g.
 * `renewDeadline`), by `run` when the elector is already running, and by `Manager.start`
 * when the lease was lost.
 */
export class LeaderElectionError extends Error {
  /** What a program can branch on. */
  readonly reason: LeaderElectionErrorReason;
  /** The option at fault, for `InvalidConfig`. */
  readonly field: string | undefined;
  readonly [marker] = true;

  constructor(reason: LeaderElectionErrorReason, message: string, field?: string) {
    super(message);
    this.name = 'LeaderElectionError';
    this.reason = reason;
    this.field = field;
  }

  /** True for any LeaderElectionError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is LeaderElectionError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
