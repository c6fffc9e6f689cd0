//! A downloaded archive is not the one the release index names.

import { EnvtestError } from './envtest-error.js';

/**
 * The SHA-512 of a downloaded envtest archive differs from the release index's: the file is
 * corrupt or not the published one. Nothing of it was extracted or kept.
 */
export class ChecksumMismatchError extends EnvtestError {
  /** The archive's name, e.g. `envtest-v1.37.2-linux-amd64.tar.gz`. */
  readonly file: string;
  /** Where it was downloaded from. */
  readonly url: string;
  /** The SHA-512 (hex) the release index gives. */
  readonly expectedSha512: string;
  /** The SHA-512 (hex) of what was downloaded. */
  readonly actualSha512: string;

  constructor(file: string, url: string, expectedSha512: string, actualSha512: string) {
    super(
      'ChecksumMismatch',
      `${file} (from ${url}) does not match the release index: expected sha512 ${expectedSha512}, ` +
        `got ${actualSha512}; nothing was kept`,
    );
    this.file = file;
    this.url = url;
    this.expectedSha512 = expectedSha512;
    this.actualSha512 = actualSha512;
  }
}
