//! Neither prebuilt binaries nor a Go toolchain to build them were found.

import { EnvtestError } from './envtest-error.js';

/**
 * No `kube-apiserver`/`etcd` could be found and none could be built.
 *
 * The message names both ways out: point `KUBEBUILDER_ASSETS` at a folder holding both
 * binaries, or install Go so that envtest can build them.
 */
export class BinariesMissingError extends EnvtestError {
  /** The places that were looked at, in order. */
  readonly searched: readonly string[];

  constructor(problem: string, searched: readonly string[]) {
    super(
      'BinariesMissing',
      `${problem}; looked in: ${searched.join(', ')}. ` +
        'Either set KUBEBUILDER_ASSETS to a folder that holds kube-apiserver and etcd ' +
        '(for example the output of `setup-envtest use -p path`), ' +
        'or install Go (https://go.dev/dl/, the version in go/*/go.mod or newer) ' +
        'so that envtest builds them once into its cache (`ctrlkit-envtest setup`)',
    );
    this.searched = searched;
  }
}
