//! The error for a GpuConfig that does not decode or is invalid.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Thrown by `decodeGpuConfig` for opaque parameters that are not a valid GpuConfig. `field`
 * is the path of the fault inside the parameters (`sharing.timeSlicingConfig.interval`;
 * `''` for the parameters themselves); `problem` says what is wrong.
 */
export class GpuConfigError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'InvalidGpuConfig' as const;
  /** The path of the fault inside the parameters, `''` for the whole object. */
  readonly field: string;
  /** What is wrong, without the field, e.g. `unknown time-slice interval: "Forever"`. */
  readonly problem: string;

  constructor(field: string, problem: string) {
    super(field === '' ? problem : `${field}: ${problem}`);
    this.field = field;
    this.problem = problem;
  }
}
