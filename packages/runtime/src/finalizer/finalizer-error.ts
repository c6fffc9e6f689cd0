//! The error of the finalizer flow.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong (kube-rs' `finalizer::Error` variants):
 * - `ApplyFailed`: the reconciler's `Apply` branch threw; `cause` is its error;
 * - `CleanupFailed`: the reconciler's `Cleanup` branch threw; the finalizer stays;
 * - `AddFinalizerFailed`: the patch adding the finalizer failed (network, permissions, or
 *   the finalizer list changed meanwhile); `cause` is the API error;
 * - `RemoveFinalizerFailed`: the patch removing the finalizer failed; cleanup runs again;
 * - `UnnamedObject`: the object has no `metadata.name`.
 */
export type FinalizerErrorReason =
  | 'ApplyFailed'
  | 'CleanupFailed'
  | 'AddFinalizerFailed'
  | 'RemoveFinalizerFailed'
  | 'UnnamedObject';

/** The error of {@link finalizer}; `reason` tells which step failed, `cause` why. */
export class FinalizerError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: FinalizerErrorReason;
  /** The finalizer the flow manages. */
  readonly finalizer: string;

  constructor(reason: FinalizerErrorReason, finalizer: string, cause?: unknown) {
    super(
      `${messages[reason]} (finalizer ${finalizer})${cause === undefined ? '' : `: ${cause instanceof Error ? cause.message : String(cause)}`}`,
      cause === undefined ? undefined : { cause },
    );
    this.reason = reason;
    this.finalizer = finalizer;
  }
}

const messages: Record<FinalizerErrorReason, string> = {
  ApplyFailed: 'failed to apply object',
  CleanupFailed: 'failed to clean up object',
  AddFinalizerFailed: 'failed to add finalizer',
  RemoveFinalizerFailed: 'failed to remove finalizer',
  UnnamedObject: 'object has no name',
};
