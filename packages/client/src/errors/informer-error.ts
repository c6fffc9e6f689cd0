//! The base of every error the informers throw or log.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Why an informer operation failed; a program can branch on it. An invalid option or
 * argument is not an `InformerError` but the `InvalidArgumentError` every ctrlkit package throws.
 */
export type InformerErrorReason = 'ApiStatus' | 'ResourceExpired' | 'WatchStream';

/**
 * The base class of the informers' errors. Use `InformerError.isInstance(error)` (or a
 * subclass's `isInstance`) rather than `instanceof`: it also recognises errors from
 * another copy of this package.
 */
export class InformerError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: InformerErrorReason;

  constructor(reason: InformerErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
