// The base class of every error `@ctrlkit/expectations` throws.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Why an expectations call failed, for a program to branch on:
 * - `KeyFunc`: a key function could not derive a key (see `KeyFuncError`).
 *
 * An argument rejected at the call is not an `ExpectationsError` but the `InvalidArgumentError`
 * of `@ctrlkit/core` (re-exported here), shared by every ctrlkit package.
 */
export type ExpectationsErrorReason = 'KeyFunc';

/**
 * The base of the package's errors. Test with `ExpectationsError.isInstance(e)` (or a
 * subclass's guard), which works across two copies of the package, unlike `instanceof`.
 */
export class ExpectationsError extends CtrlkitError {
  /** What went wrong, for a program to branch on. */
  readonly reason: ExpectationsErrorReason;
  constructor(reason: ExpectationsErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
