//! Flags every program that talks to a cluster shares, spelled and meant as kubectl's.

import type { FlagSpec } from './flags.js';

/**
 * kubectl's `--insecure-skip-tls-verify`, for a program's flag table: pass its value to
 * `loadKubeConfig`'s `insecureSkipTlsVerify` (with the program's logger, which warns about
 * it). It overrides the kubeconfig's cluster setting; off by default.
 */
export const INSECURE_SKIP_TLS_VERIFY_FLAG: FlagSpec<'boolean'> = {
  type: 'boolean',
  default: false,
  help: "don't verify the apiserver's certificate (overrides the kubeconfig; insecure: for testing only)",
};
