//! Issues X.509 certificates (a CA, serving and client certificates) with Node's crypto only.
//
// Node can generate keys and sign, but not write certificates, so this file encodes the few
// DER structures of RFC 5280 that a kube-apiserver and its clients need. No openssl.

import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isIPv4 } from 'node:net';

/** A certificate and its private key, both PEM. */
export interface IssuedCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** The private key, to sign further certificates when this is a CA. */
  readonly privateKey: KeyObject;
  /** The DER subject, used as the issuer of certificates this one signs. */
  readonly subjectDer: Buffer;
  readonly subjectKeyId: Buffer;
}

/** What a certificate is for, and who it names. */
export interface CertificateRequest {
  readonly commonName: string;
  /** `O=` entries; for a client certificate these are the user's groups. */
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly usage: 'ca' | 'server' | 'client';
  readonly notBefore: Date;
  readonly notAfter: Date;
}

const OID = {
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** Generates an ECDSA P-256 key pair and a certificate, signed by `issuer` or by itself. */
export function issueCertificate(
  request: CertificateRequest,
  issuer?: IssuedCertificate,
): IssuedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subjectKeyId = createHash('sha1').update(subjectPublicKeyBits(spki)).digest();
  const subjectDer = encodeName(request.commonName, request.organizations ?? []);
  const signer = issuer?.privateKey ?? privateKey;
  const algorithm = sequence(oid(OID.ecdsaWithSha256));

  const extensions = [
    extension(
      OID.basicConstraints,
      true,
      sequence(...(request.usage === 'ca' ? [boolean(true)] : [])),
    ),
    // keyUsage bits: digitalSignature(0), keyEncipherment(2), keyCertSign(5), cRLSign(6).
    extension(
      OID.keyUsage,
      true,
      request.usage === 'ca' ? bitString(0b10000110, 1) : bitString(0b10100000, 5),
    ),
    extension(OID.subjectKeyIdentifier, false, octetString(subjectKeyId)),
  ];
  if (issuer !== undefined) {
    extensions.push(
      extension(OID.authorityKeyIdentifier, false, sequence(tlv(0x80, issuer.subjectKeyId))),
    );
  }
  if (request.usage !== 'ca') {
    const purpose = request.usage === 'server' ? OID.serverAuth : OID.clientAuth;
    extensions.push(extension(OID.extKeyUsage, false, sequence(oid(purpose))));
  }
  const altNames = [
    ...(request.dnsNames ?? []).map((name) => tlv(0x82, Buffer.from(name, 'ascii'))),
    ...(request.ipAddresses ?? []).map((ip) => tlv(0x87, encodeIp(ip))),
  ];
  if (altNames.length > 0)
    extensions.push(extension(OID.subjectAltName, false, sequence(...altNames)));

  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serialNumber()),
    algorithm,
    issuer?.subjectDer ?? subjectDer,
    sequence(encodeTime(request.notBefore), encodeTime(request.notAfter)),
    subjectDer,
    spki,
    tlv(0xa3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, signer);
  const certificate = sequence(tbs, algorithm, bitString(signature));
  return {
    certPem: toPem('CERTIFICATE', certificate),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
    subjectDer,
    subjectKeyId,
  };
}

/** PEM-encodes DER bytes under `label`, 64 characters a line. */
export function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function encodeName(commonName: string, organizations: readonly string[]): Buffer {
  const rdn = (type: string, value: string) => set(sequence(oid(type), utf8String(value)));
  return sequence(
    ...organizations.map((o) => rdn(OID.organization, o)),
    rdn(OID.commonName, commonName),
  );
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes;
}

function encodeIp(ip: string): Buffer {
  if (!isIPv4(ip)) throw new Error(`only IPv4 addresses are supported in certificates, got ${ip}`);
  return Buffer.from(ip.split('.').map(Number));
}

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function encodeTime(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}

/** The public key bits of a SubjectPublicKeyInfo: its BIT STRING without the unused-bits byte. */
function subjectPublicKeyBits(spki: Buffer): Buffer {
  const outer = readTlv(spki, 0);
  const algorithm = readTlv(spki, outer.contentStart);
  const bits = readTlv(spki, algorithm.end);
  return spki.subarray(bits.contentStart + 1, bits.end);
}

function readTlv(der: Buffer, offset: number): { contentStart: number; end: number } {
  let length = der[offset + 1]!;
  let contentStart = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    length = 0;
    for (let i = 0; i < bytes; i++) length = (length << 8) | der[offset + 2 + i]!;
    contentStart += bytes;
  }
  return { contentStart, end: contentStart + length };
}

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let header: Buffer;
  if (n < 0x80) header = Buffer.from([tag, n]);
  else if (n < 0x100) header = Buffer.from([tag, 0x81, n]);
  else if (n < 0x10000) header = Buffer.from([tag, 0x82, n >> 8, n & 0xff]);
  else header = Buffer.from([tag, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([header, content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const boolean = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
const octetString = (value: Buffer) => tlv(0x04, value);
const utf8String = (value: string) => tlv(0x0c, Buffer.from(value, 'utf8'));

/** A positive INTEGER from big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

/** A BIT STRING; for a single flags byte, `unused` is the count of unused low bits. */
function bitString(value: Buffer | number, unused = 0): Buffer {
  const bytes = typeof value === 'number' ? Buffer.from([value]) : value;
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), bytes]));
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk = [part & 0x7f];
    for (let rest = part >>> 7; rest > 0; rest >>>= 7) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}
