//! The base of every error this package throws.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Why an envtest operation failed; a program can branch on it. An invalid option is not an
 * `EnvtestError` but the `InvalidArgumentError` of `@ctrlkit/core` (re-exported here).
 */
export type EnvtestErrorReason =
  | 'BinariesMissing'
  | 'BuildFailed'
  | 'ChecksumMismatch'
  | 'ArchiveInvalid'
  | 'PortInUse'
  | 'ProcessExited'
  | 'NotReady'
  | 'UnknownComponent';

/**
 * The base class of every error thrown by `@ctrlkit/envtest`.
 *
 * Use `EnvtestError.isInstance(error)` (or a subclass's `isInstance`) rather than
 * `instanceof`: it also recognises errors from another copy of this package.
 */
export class EnvtestError extends CtrlkitError {
  readonly reason: EnvtestErrorReason;

  constructor(reason: EnvtestErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Formats the last lines of a log, and where the whole log is, for an error message. */
export function formatLogTail(
  processName: string,
  logTail: readonly string[],
  logPath?: string,
): string {
  const log =
    logPath === undefined ? `the ${processName} log` : `the ${processName} log ${logPath}`;
  if (logTail.length === 0) return `${processName} wrote nothing to ${log}`;
  return `last ${logTail.length} lines of ${log}:\n  ${logTail.join('\n  ')}`;
}
