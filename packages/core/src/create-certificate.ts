//! Makes X.509 certificates (a CA, serving and client certificates) with @peculiar/x509 on WebCrypto.

import { randomBytes, type webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import type { Extension } from '@peculiar/x509';
import { InvalidArgumentError } from './invalid-argument-error.js';

/** `ca` signs other certificates; `server` serves TLS; `client` authenticates (CN = user, O = groups). */
export type CertificateUsage = 'ca' | 'server' | 'client';

/** What a certificate is for, and who it names. */
export interface CertificateRequest {
  /** The subject's `CN`: a user name for a client certificate, a host for a serving one. */
  readonly commonName: string;
  /** `O=` entries, one relative name each; for a client certificate these are the user's groups. */
  readonly organizations?: readonly string[];
  /** Subject alternative DNS names (written after the addresses). */
  readonly dnsNames?: readonly string[];
  /** Subject alternative IP addresses, IPv4 or IPv6 (written first). */
  readonly ipAddresses?: readonly string[];
  readonly usage: CertificateUsage;
  /** Start of validity. Default: one hour ago (a little clock skew does no harm). */
  readonly notBefore?: Date;
  /** End of validity. Default: ten years from now for a CA, one year for the others. */
  readonly notAfter?: Date;
}

/** A certificate and its private key. */
export interface IssuedCertificate {
  /** The certificate, PEM (`-----BEGIN CERTIFICATE-----`). */
  readonly certPem: string;
  /** The private key, PKCS #8 PEM (`-----BEGIN PRIVATE KEY-----`). */
  readonly keyPem: string;
  /** The private key as a WebCrypto key: what signs further certificates when this is a CA. */
  readonly privateKey: webcrypto.CryptoKey;
}

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

type X509 = typeof import('@peculiar/x509');
let library: Promise<X509> | undefined;

/**
 * Loads @peculiar/x509 on first use. Version 2 needs a Reflect metadata polyfill loaded
 * before it (its dependency injection reads `Reflect.getMetadata`); loading both lazily keeps
 * them out of processes that never make a certificate.
 */
function x509(): Promise<X509> {
  library ??= import('reflect-metadata').then(() => import('@peculiar/x509'));
  return library;
}

/**
 * Creates an ECDSA P-256 key pair and a certificate for it, signed (SHA-256) by `issuer`, or
 * by itself when there is none. A CA gets `basicConstraints CA:TRUE` and may sign; a server
 * or client certificate gets the matching extended key usage, the subject alternative names,
 * and an authority key identifier when issued by a CA. The key is generated with the
 * WebCrypto of the running Node (`globalThis.crypto`).
 *
 * Errors: `InvalidArgumentError` for an empty `commonName`, an address that is not IPv4 or
 * IPv6, or `notAfter` not after `notBefore`.
 */
export async function createCertificate(
  request: CertificateRequest,
  issuer?: IssuedCertificate,
): Promise<IssuedCertificate> {
  const { usage, commonName } = request;
  if (typeof commonName !== 'string' || commonName === '')
    throw new InvalidArgumentError('commonName', 'must be a non-empty string');
  if (usage !== 'ca' && usage !== 'server' && usage !== 'client')
    throw new InvalidArgumentError('usage', `must be ca, server or client, got ${String(usage)}`);
  for (const ip of request.ipAddresses ?? []) {
    if (isIP(ip) === 0) throw new InvalidArgumentError('ipAddresses', `not an IP address: ${ip}`);
  }
  const now = Date.now();
  const notBefore = request.notBefore ?? new Date(now - HOUR_MS);
  const notAfter = request.notAfter ?? new Date(now + (usage === 'ca' ? 10 : 1) * YEAR_MS);
  if (!(notAfter.getTime() > notBefore.getTime()))
    throw new InvalidArgumentError('notAfter', 'must be after notBefore');

  const lib = await x509();
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const issuerCert = issuer === undefined ? undefined : new lib.X509Certificate(issuer.certPem);
  const flags = lib.KeyUsageFlags;
  const extensions: Extension[] = [
    new lib.BasicConstraintsExtension(usage === 'ca', undefined, true),
    new lib.KeyUsagesExtension(
      usage === 'ca'
        ? flags.digitalSignature | flags.keyCertSign | flags.cRLSign
        : flags.digitalSignature | flags.keyEncipherment,
      true,
    ),
    await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (issuerCert !== undefined)
    extensions.push(await lib.AuthorityKeyIdentifierExtension.create(issuerCert.publicKey));
  if (usage !== 'ca') {
    const purpose =
      usage === 'server' ? lib.ExtendedKeyUsage.serverAuth : lib.ExtendedKeyUsage.clientAuth;
    extensions.push(new lib.ExtendedKeyUsageExtension([purpose]));
  }
  const altNames = [
    ...(request.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(request.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
  ];
  if (altNames.length > 0) extensions.push(new lib.SubjectAlternativeNameExtension(altNames));

  const subject = [...(request.organizations ?? []).map((o) => ({ O: [o] })), { CN: [commonName] }];
  const certificate = await lib.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    // The issuer's encoded name as it stands in its certificate: Go matches issuers by bytes.
    issuer: issuerCert?.subjectName ?? subject,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: issuer?.privateKey ?? keys.privateKey,
    extensions,
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    certPem: `${certificate.toString('pem')}\n`,
    keyPem: `${lib.PemConverter.encode(pkcs8, 'PRIVATE KEY')}\n`,
    privateKey: keys.privateKey,
  };
}

/** 16 random bytes, positive and non-zero (Go rejects negative serial numbers). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}
