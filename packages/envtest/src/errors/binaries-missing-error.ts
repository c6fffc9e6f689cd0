//! Neither prebuilt binaries nor a Go toolchain to build them were found.

import { EnvtestError } from './envtest-error.js';

/**
 * Control plane binaries (`kube-apiserver`, `etcd`, or a requested component such as
 * `kube-scheduler`) could not be found and none could be built.
 *
 * The message names the missing binaries and both ways out: point `KUBEBUILDER_ASSETS` at a
 * folder holding them, or install Go so that envtest builds them.
 */
export class BinariesMissingError extends EnvtestError {
  /** The places that were looked at, in order. */
  readonly searched: readonly string[];
  /** The binaries that are missing, e.g. `['kube-scheduler']`. */
  readonly binaries: readonly string[];

  constructor(
    problem: string,
    searched: readonly string[],
    binaries: readonly string[] = ['kube-apiserver', 'etcd'],
  ) {
    super(
      'BinariesMissing',
      `${problem}; looked in: ${searched.join(', ')}. ` +
        `Either set KUBEBUILDER_ASSETS to a folder that holds ${binaries.join(' and ')} ` +
        '(for example the output of `setup-envtest use -p path`, plus any component you ask for), ' +
        'or install Go (https://go.dev/dl/, the version in go/*/go.mod or newer) ' +
        'so that envtest builds them once into its cache (`ctrlkit-envtest setup`)',
    );
    this.searched = searched;
    this.binaries = binaries;
  }
}
