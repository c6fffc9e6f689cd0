//! The error the event recorder throws for an option it cannot accept.

const marker = Symbol.for('@ctrlkit/runtime/EventRecorderError');

/** What went wrong: `InvalidConfig` (an option is missing or out of range). */
export type EventRecorderErrorReason = 'InvalidConfig';

/**
 * Thrown by `new EventRecorder(...)` when an option is invalid; `field` names it. Writing an
 * event never throws: failures are logged.
 */
export class EventRecorderError extends Error {
  /** What a program can branch on. */
  readonly reason: EventRecorderErrorReason;
  /** The option at fault, e.g. `component`. */
  readonly field: string;
  readonly [marker] = true;

  constructor(reason: EventRecorderErrorReason, field: string, problem: string) {
    super(`invalid ${field}: ${problem}`);
    this.name = 'EventRecorderError';
    this.reason = reason;
    this.field = field;
  }

  /** True for any EventRecorderError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is EventRecorderError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
