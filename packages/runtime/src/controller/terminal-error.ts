//! The error a reconciler throws to say "do not retry".

const marker = Symbol.for('@ctrlkit/runtime/TerminalError');

/**
 * Thrown by a reconciler when retrying cannot help (controller-runtime's
 * `reconcile.TerminalError`): the key is forgotten and the error logged, not requeued.
 */
export class TerminalError extends Error {
  /** What a program can branch on. */
  readonly reason = 'Terminal' as const;
  readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }

  /** True for any TerminalError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is TerminalError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
