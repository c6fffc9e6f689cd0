//! The base of every error the informers throw or log.

const marker = Symbol.for('@ctrlkit/runtime/InformerError');

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
export class InformerError extends Error {
  readonly [marker] = true;
  /** What a program can branch on. */
  readonly reason: InformerErrorReason;

  constructor(reason: InformerErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InformerError';
    this.reason = reason;
  }

  /** True when `error` is an `InformerError` (any subclass) from any copy of this package. */
  static isInstance(error: unknown): error is InformerError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[marker] === true &&
      typeof (error as { reason?: unknown }).reason === 'string'
    );
  }
}
