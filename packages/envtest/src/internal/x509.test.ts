import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueCertificate } from './x509.js';

const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2051-01-01T00:00:00Z'),
};

describe('issueCertificate', () => {
  const ca = issueCertificate({ commonName: 'test-ca', usage: 'ca', ...validity });

  it('issues a self-signed CA certificate', () => {
    const cert = new X509Certificate(ca.certPem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=test-ca');
    expect(cert.issuer).toBe('CN=test-ca');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.validToDate.toISOString()).toBe('2051-01-01T00:00:00.000Z');
  });

  it('issues a serving certificate for 127.0.0.1 and localhost signed by the CA', () => {
    const serving = issueCertificate(
      {
        commonName: 'kube-apiserver',
        usage: 'server',
        dnsNames: ['localhost'],
        ipAddresses: ['127.0.0.1'],
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
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(serving.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('puts groups into O= of a client certificate', () => {
    const client = issueCertificate(
      { commonName: 'admin', organizations: ['system:masters'], usage: 'client', ...validity },
      ca,
    );
    const cert = new X509Certificate(client.certPem);
    expect(cert.subject).toBe('O=system:masters\nCN=admin');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });
});
