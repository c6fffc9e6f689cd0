//! The error for an informer option or argument that cannot be accepted.

import { InformerError } from './informer-error.js';

const marker = Symbol.for('@ctrlkit/runtime/InvalidInformerOptionError');

/**
 * Thrown at construction (or at the call) when an option is invalid: a negative resync
 * period, a resource without a version, an unknown index. `field` names what is wrong.
 */
export class InvalidInformerOptionError extends InformerError {
  readonly [marker] = true;
  /** The option or argument at fault, e.g. `resyncPeriodMs` or `resource.version`. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super('InvalidOption', `invalid ${field}: ${problem}`);
    this.name = 'InvalidInformerOptionError';
    this.field = field;
  }

  /** True for any InvalidInformerOptionError, also one made by another copy of this package. */
  static override isInstance(error: unknown): error is InvalidInformerOptionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
