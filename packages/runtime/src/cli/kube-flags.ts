//! Flags every program that talks to a cluster shares, spelled and meant as kubectl's.

import { CONTENT_TYPE_JSON, CONTENT_TYPE_PROTOBUF } from '@ctrlkit/client';
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

/**
 * kube-controller-manager's `--kube-api-content-type`, for a program's flag table: the wire
 * format its client asks for built-in types (`ClientOptions.contentType`, the Manager's
 * `contentType`); protobuf by default, `application/json` to read everything as JSON.
 */
export const KUBE_API_CONTENT_TYPE_FLAG = {
  type: 'string',
  default: CONTENT_TYPE_PROTOBUF,
  choices: [CONTENT_TYPE_PROTOBUF, CONTENT_TYPE_JSON],
  help: 'the wire format asked of the apiserver for built-in types: application/vnd.kubernetes.protobuf or application/json (custom resources are JSON either way)',
} as const satisfies FlagSpec<'string'>;
