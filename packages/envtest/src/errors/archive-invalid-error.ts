//! A downloaded archive could not be extracted or lacks a binary.

import { EnvtestError } from './envtest-error.js';

/**
 * A downloaded envtest archive whose checksum matched could not be unpacked (not gzip, a
 * broken tar header) or lacks `kube-apiserver` or `etcd`. Nothing of it was kept.
 */
export class ArchiveInvalidError extends EnvtestError {
  /** The archive's name, e.g. `envtest-v1.37.2-linux-amd64.tar.gz`. */
  readonly file: string;

  constructor(file: string, problem: string, options?: { cause?: unknown }) {
    super('ArchiveInvalid', `${file}: ${problem}; nothing was kept`, options);
    this.file = file;
  }
}
