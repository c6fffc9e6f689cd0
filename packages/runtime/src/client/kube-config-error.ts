//! The error of a client configuration that cannot be found or read.

const marker = Symbol.for('@ctrlkit/runtime/KubeConfigError');

/**
 * What went wrong: `NotFound` (no source of configuration), `Unreadable` (the chosen file
 * is missing or malformed; `cause` says why), `NoSuchContext` (the asked context is absent).
 */
export type KubeConfigErrorReason = 'NotFound' | 'Unreadable' | 'NoSuchContext';

/** Thrown by {@link loadKubeConfig} when it cannot produce a configuration. */
export class KubeConfigError extends Error {
  /** What a program can branch on. */
  readonly reason: KubeConfigErrorReason;
  readonly [marker] = true;

  constructor(reason: KubeConfigErrorReason, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'KubeConfigError';
    this.reason = reason;
  }

  /** True for any KubeConfigError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is KubeConfigError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
