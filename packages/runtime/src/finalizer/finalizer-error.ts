//! The error of the finalizer flow.

const marker = Symbol.for('@ctrlkit/runtime/FinalizerError');

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
export class FinalizerError extends Error {
  /** What a program can branch on. */
  readonly reason: FinalizerErrorReason;
  /** The finalizer the flow manages. */
  readonly finalizer: string;
  readonly [marker] = true;

  constructor(reason: FinalizerErrorReason, finalizer: string, cause?: unknown) {
    super(
      `${messages[reason]} (finalizer ${finalizer})${cause === undefined ? '' : `: ${cause instanceof Error ? cause.message : String(cause)}`}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'FinalizerError';
    this.reason = reason;
    this.finalizer = finalizer;
  }

  /** True for any FinalizerError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is FinalizerError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

const messages: Record<FinalizerErrorReason, string> = {
  ApplyFailed: 'failed to apply object',
  CleanupFailed: 'failed to clean up object',
  AddFinalizerFailed: 'failed to add finalizer',
  RemoveFinalizerFailed: 'failed to remove finalizer',
  UnnamedObject: 'object has no name',
};
