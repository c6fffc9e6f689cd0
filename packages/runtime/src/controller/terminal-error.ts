//! The error a reconciler throws to say "do not retry".

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Thrown by a reconciler when retrying cannot help (controller-runtime's
 * `reconcile.TerminalError`): the key is forgotten and the error logged, not requeued.
 */
export class TerminalError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'Terminal' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
