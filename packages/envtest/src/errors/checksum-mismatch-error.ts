//! A downloaded archive is not the one the release index names.

import { EnvtestError } from './envtest-error.js';

/**
 * The SHA-512 of a downloaded file (the envtest archive, a kube-scheduler or
 * kube-controller-manager binary) differs from the published one (the release index's, the
 * `.sha512` beside the binary): the file is corrupt or not the published one. Nothing of it
 * was extracted or kept.
 */
export class ChecksumMismatchError extends EnvtestError {
  /** The file's name, e.g. `envtest-v1.37.2-linux-amd64.tar.gz` or `kube-scheduler`. */
  readonly file: string;
  /** Where it was downloaded from. */
  readonly url: string;
  /** The SHA-512 (hex) it is published with. */
  readonly expectedSha512: string;
  /** The SHA-512 (hex) of what was downloaded. */
  readonly actualSha512: string;

  /**
   * @param checksumSource - where `expectedSha512` was published, for the message: the
   *   release index (the default), or the URL of a `.sha512` file.
   */
  constructor(
    file: string,
    url: string,
    expectedSha512: string,
    actualSha512: string,
    checksumSource = 'the release index',
  ) {
    super(
      'ChecksumMismatch',
      `${file} (from ${url}) does not match ${checksumSource}: expected sha512 ${expectedSha512}, ` +
        `got ${actualSha512}; nothing was kept`,
    );
    this.file = file;
    this.url = url;
    this.expectedSha512 = expectedSha512;
    this.actualSha512 = actualSha512;
  }
}
