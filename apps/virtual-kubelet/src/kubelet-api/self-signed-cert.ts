//! A self-signed serving certificate (ECDSA P-256, SHA-256), made with node:crypto alone.

import { createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** A PEM certificate and its PEM private key. */
export interface ServingCert {
  cert: string;
  key: string;
}

/**
 * Makes a self-signed certificate for `commonName`, valid from now for `days`, with `hosts`
 * (IP addresses and DNS names) as subject alternative names.
 */
export function selfSignedCert(
  commonName: string,
  hosts: string[],
  days = 365,
  now = new Date(),
): ServingCert {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const notAfter = new Date(now.getTime() + days * 86_400_000);
  const sans = hosts.map((h) =>
    isIP(h) === 4
      ? tlv(0x87, Buffer.from(h.split('.').map(Number)))
      : isIP(h) === 6
        ? tlv(0x87, ipv6Bytes(h))
        : tlv(0x82, Buffer.from(h, 'ascii')),
  );
  const extensions = tlv(
    0xa3,
    seq(
      seq(oid('2.5.29.17'), tlv(0x04, seq(...sans))),
      seq(oid('2.5.29.37'), tlv(0x04, seq(oid('1.3.6.1.5.5.7.3.1')))),
    ),
  );
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ecdsaWithSha256,
    name,
    seq(utcTime(new Date(now.getTime() - 60_000)), utcTime(notAfter)),
    name,
    Buffer.from(spki),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function tlv(tag: number, value: Buffer): Buffer {
  const length = value.length;
  let header: Buffer;
  if (length < 0x80) header = Buffer.from([tag, length]);
  else if (length < 0x100) header = Buffer.from([tag, 0x81, length]);
  else header = Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([header, value]);
}

function seq(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const s = date.toISOString();
  const text = `${s.slice(2, 4)}${s.slice(5, 7)}${s.slice(8, 10)}${s.slice(11, 13)}${s.slice(14, 16)}${s.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function ipv6Bytes(ip: string): Buffer {
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}
