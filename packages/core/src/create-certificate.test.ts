import { X509Certificate } from 'node:crypto';
import { createServer, request, type Server } from 'node:https';
import { describe, expect, it } from 'vitest';
import { createCertificate } from './create-certificate.js';

const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2051-01-01T00:00:00Z'),
};

describe('createCertificate', async () => {
  const ca = await createCertificate({ commonName: 'test-ca', usage: 'ca', ...validity });

  it('issues a self-signed CA certificate', () => {
    const cert = new X509Certificate(ca.certPem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=test-ca');
    expect(cert.issuer).toBe('CN=test-ca');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.validToDate.toISOString()).toBe('2051-01-01T00:00:00.000Z');
    expect(BigInt(`0x${cert.serialNumber}`)).toBeGreaterThan(0n);
  });

  it('issues a serving certificate for 127.0.0.1, ::1 and localhost signed by the CA', async () => {
    const serving = await createCertificate(
      {
        commonName: 'kube-apiserver',
        usage: 'server',
        dnsNames: ['localhost'],
        ipAddresses: ['127.0.0.1', '::1'],
        ...validity,
      },
      ca,
    );
    const cert = new X509Certificate(serving.certPem);
    expect(cert.ca).toBe(false);
    expect(cert.issuer).toBe('CN=test-ca');
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(serving.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('puts each group into its own O= of a client certificate', async () => {
    const client = await createCertificate(
      {
        commonName: 'admin',
        organizations: ['system:masters', 'developers'],
        usage: 'client',
        ...validity,
      },
      ca,
    );
    const cert = new X509Certificate(client.certPem);
    expect(cert.subject).toBe('O=system:masters\nO=developers\nCN=admin');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  it('serves TLS that a client trusting only the CA accepts', async () => {
    const serving = await createCertificate(
      { commonName: 'localhost', usage: 'server', ipAddresses: ['127.0.0.1'] },
      ca,
    );
    const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (_, res) =>
      res.end('ok'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, ca: ca.certPem }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('ok');
    } finally {
      server.close();
    }
  });

  it('rejects an empty common name, a bad address and an empty validity', async () => {
    await expect(createCertificate({ commonName: '', usage: 'ca' })).rejects.toThrow(
      /invalid commonName/,
    );
    await expect(
      createCertificate({ commonName: 'x', usage: 'server', ipAddresses: ['localhost'] }),
    ).rejects.toThrow(/invalid ipAddresses: not an IP address: localhost/);
    await expect(
      createCertificate({
        commonName: 'x',
        usage: 'ca',
        notBefore: validity.notAfter,
        notAfter: validity.notBefore,
      }),
    ).rejects.toThrow(/invalid notAfter/);
  });
});
