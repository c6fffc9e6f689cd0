// The error for an option or argument a ctrlkit package cannot accept.

import { CtrlkitError } from './ctrlkit-error.js';

/**
 * Thrown at the call when an option or argument is invalid: a negative burst, a NaN or
 * infinite delay, an unknown or renamed option. `field` names what is wrong.
 */
export class InvalidArgumentError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'InvalidArgument' as const;
  /** The option or argument at fault, e.g. `burst` or `options.name`. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`invalid ${field}: ${problem}`);
    this.field = field;
  }
}
