//! Flags of a webhook server's serving certificate, as kube-apiserver's and controller-runtime's: the files, or a folder holding tls.crt and tls.key.

import { basename, dirname, resolve } from 'node:path';
import { InvalidArgumentError } from '@ctrlkit/core';
import { DEFAULT_CERT_DIR } from '../webhook/webhook-server.js';
import type { FlagSpec } from './flags.js';

/** `--tls-cert-file`, for a program's flag table (add an `env` for the program's variable). */
export const TLS_CERT_FILE_FLAG = {
  type: 'string',
  default: '',
  help: 'serving certificate (PEM, CA certificates after it); reloaded when it changes; overrides --cert-dir',
} as const satisfies FlagSpec<'string'>;

/** `--tls-private-key-file`, the key of {@link TLS_CERT_FILE_FLAG}. */
export const TLS_PRIVATE_KEY_FILE_FLAG = {
  type: 'string',
  default: '',
  help: 'private key of --tls-cert-file (PEM), in the same folder; required with it',
} as const satisfies FlagSpec<'string'>;

/** `--cert-dir`, controller-runtime's: the folder of `tls.crt` and `tls.key`. Default `DEFAULT_CERT_DIR`. */
export const CERT_DIR_FLAG = {
  type: 'string',
  default: DEFAULT_CERT_DIR,
  help: 'folder of tls.crt and tls.key (a mounted kubernetes.io/tls Secret), when --tls-cert-file is unset',
} as const satisfies FlagSpec<'string'>;

/** Where a WebhookServer finds its certificate and key (its `certDir`, `certName`, `keyName` options). */
export interface ServingCertificateFiles {
  certDir: string;
  certName: string;
  keyName: string;
}

/**
 * The `WebhookServer` certificate options of the three flags' values: with neither file,
 * `tls.crt` and `tls.key` in `certDir`; else both files, which must be in one folder (the
 * server watches one). Throws InvalidArgumentError naming the flag that is missing or misplaced.
 */
export function servingCertificateFiles(
  certFile: string,
  keyFile: string,
  certDir: string,
): ServingCertificateFiles {
  if (certFile === '' && keyFile === '')
    return { certDir, certName: 'tls.crt', keyName: 'tls.key' };
  if (certFile === '' || keyFile === '') {
    throw new InvalidArgumentError(
      certFile === '' ? '--tls-cert-file' : '--tls-private-key-file',
      'is required with --tls-cert-file and --tls-private-key-file: give both or neither',
    );
  }
  if (resolve(dirname(certFile)) !== resolve(dirname(keyFile))) {
    throw new InvalidArgumentError(
      '--tls-private-key-file',
      `must be in the folder of --tls-cert-file (${dirname(certFile)}), got ${keyFile}`,
    );
  }
  return { certDir: dirname(certFile), certName: basename(certFile), keyName: basename(keyFile) };
}
