//! The kubelet API's self-signed serving certificate, made by core's one certificate helper.

import { isIP } from 'node:net';
import { createCertificate } from '@ctrlkit/core/certificates';

/** A PEM certificate and its PEM private key. */
export interface ServingCert {
  cert: string;
  key: string;
}

/**
 * Makes a self-signed serving certificate (ECDSA P-256, SHA-256) for `commonName`, valid
 * from a minute before `now` for `days`, with `hosts` (IPv4 or IPv6 addresses and DNS names)
 * as subject alternative names.
 */
export async function selfSignedCert(
  commonName: string,
  hosts: string[],
  days = 365,
  now = new Date(),
): Promise<ServingCert> {
  const issued = await createCertificate({
    commonName,
    usage: 'server',
    dnsNames: hosts.filter((h) => isIP(h) === 0),
    ipAddresses: hosts.filter((h) => isIP(h) !== 0),
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + days * 86_400_000),
  });
  return { cert: issued.certPem, key: issued.keyPem };
}
