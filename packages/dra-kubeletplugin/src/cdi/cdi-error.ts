//! The error of an invalid CDI device ID or spec.

import { CtrlkitError } from '@ctrlkit/core';

/** What is wrong: a device ID or name part, or a spec. */
export type CdiErrorReason = 'InvalidDeviceId' | 'InvalidSpec';

/**
 * A CDI device ID or spec the container-device-interface rules reject. The message says
 * which part and why (as the Go library's); `path` names the spec file when there is one.
 */
export class CdiError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: CdiErrorReason;
  /** The spec file at fault, when a file was read or written. */
  readonly path: string | undefined;

  constructor(
    reason: CdiErrorReason,
    message: string,
    options?: { cause?: unknown; path?: string },
  ) {
    super(options?.path ? `${options.path}: ${message}` : message, options);
    this.reason = reason;
    this.path = options?.path;
  }
}
