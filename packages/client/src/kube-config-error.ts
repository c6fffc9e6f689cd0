//! The error of a client configuration that cannot be found or read.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong: `NotFound` (no source of configuration), `Unreadable` (the chosen file
 * is missing or malformed; `cause` says why), `NoSuchContext` (the asked context is absent).
 */
export type KubeConfigErrorReason = 'NotFound' | 'Unreadable' | 'NoSuchContext';

/** Thrown by {@link loadKubeConfig} when it cannot produce a configuration. */
export class KubeConfigError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: KubeConfigErrorReason;

  constructor(reason: KubeConfigErrorReason, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.reason = reason;
  }
}
