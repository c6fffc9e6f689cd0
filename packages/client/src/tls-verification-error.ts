//! The error of a server whose certificate the client does not trust, naming the server and what to fix.

import { CtrlkitError } from '@ctrlkit/core';

/** OpenSSL's and Node's codes for a certificate that failed verification. */
const VERIFICATION_CODES: ReadonlySet<string> = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A request to `server` failed because its certificate could not be verified against the
 * kubeconfig's CA (or the system's, without one): a wrong or missing `certificate-authority`,
 * a name the certificate does not cover, an expired certificate. Not retried by the client;
 * `cause` is Node's error, `code` its code (e.g. `SELF_SIGNED_CERT_IN_CHAIN`).
 */
export class TlsVerificationError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'TlsVerification' as const;
  /** The server (`https://host:port`) whose certificate was refused. */
  readonly server: string;
  /** Node's code for the failure, e.g. `SELF_SIGNED_CERT_IN_CHAIN`. */
  readonly code: string;

  constructor(server: string, cause: Error & { code: string }) {
    super(
      `TLS: the certificate of ${server} is not trusted (${cause.message}): set the kubeconfig cluster's certificate-authority to the server's CA (--insecure-skip-tls-verify turns verification off, for testing only)`,
      { cause },
    );
    this.server = server;
    this.code = cause.code;
  }

  /** `error` as a TlsVerificationError for `server` when it (or its cause) is a certificate failure, else `error`. */
  static wrap(error: unknown, server: string): unknown {
    // The failure may be the cause of another (an HTTP/2 stream canceled by its session).
    for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; ) {
      if (typeof e.code === 'string' && VERIFICATION_CODES.has(e.code))
        return new TlsVerificationError(server, e as Error & { code: string });
      e = e.cause as typeof e;
    }
    return error;
  }
}
