//! The error for an option or argument the package cannot accept.

const marker = Symbol.for('@ctrlkit/workqueue/InvalidArgumentError');

/**
 * Thrown at the call when an option or argument is invalid: a negative burst, a NaN or
 * infinite delay, an unknown option. `field` names what is wrong.
 */
export class InvalidArgumentError extends Error {
  /** What a program can branch on. */
  readonly reason = 'InvalidArgument' as const;
  /** The option or argument at fault, e.g. `burst` or `options.name`. */
  readonly field: string;
  readonly [marker] = true;

  constructor(field: string, problem: string) {
    super(`invalid ${field}: ${problem}`);
    this.name = 'InvalidArgumentError';
    this.field = field;
  }

  /** True for any InvalidArgumentError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is InvalidArgumentError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
