//! The error of a committed manifest that no longer matches what its source generates.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong:
 * - `ManifestsMissing`: the file does not exist;
 * - `ManifestsOutdated`: the file differs from what the source generates now.
 */
export type ManifestsOutdatedErrorReason = 'ManifestsMissing' | 'ManifestsOutdated';

/**
 * Thrown by {@link checkManifests}: the message names the file, the first line that
 * differs and the command that regenerates it.
 */
export class ManifestsOutdatedError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: ManifestsOutdatedErrorReason;
  /** The manifest file checked. */
  readonly file: string;
  /** The command that regenerates the file. */
  readonly regenerateCommand: string;
  /** The first line (1-based) where the file and the generated text differ; 0 when missing. */
  readonly line: number;

  constructor(
    reason: ManifestsOutdatedErrorReason,
    file: string,
    regenerateCommand: string,
    line: number,
  ) {
    super(
      reason === 'ManifestsMissing'
        ? `${file} does not exist; generate it with: ${regenerateCommand}`
        : `${file} is out of date with the types it is generated from (first difference at line ${line}); regenerate it with: ${regenerateCommand}`,
    );
    this.reason = reason;
    this.file = file;
    this.regenerateCommand = regenerateCommand;
    this.line = line;
  }
}
