//! An option given to envtest is out of range or of the wrong type.

import { EnvtestError } from './envtest-error.js';

/** An option is invalid; `field` names it (for example `startTimeoutMs`). */
export class InvalidOptionError extends EnvtestError {
  readonly field: string;

  constructor(field: string, problem: string) {
    super('InvalidOption', `invalid option ${field}: ${problem}`);
    this.name = 'InvalidOptionError';
    this.field = field;
  }

  static override isInstance(error: unknown): error is InvalidOptionError {
    return EnvtestError.isInstance(error) && error.reason === 'InvalidOption';
  }
}
