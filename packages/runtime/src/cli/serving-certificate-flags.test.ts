import { describe, expect, it } from 'vitest';
import { servingCertificateFiles } from './serving-certificate-flags.js';

describe('servingCertificateFiles', () => {
  it('takes tls.crt and tls.key in the cert dir when no file is named', () => {
    expect(servingCertificateFiles('', '', '/certs')).toEqual({
      certDir: '/certs',
      certName: 'tls.crt',
      keyName: 'tls.key',
    });
  });

  it('takes both files, in their folder', () => {
    expect(servingCertificateFiles('/var/run/api/cert.pem', '/var/run/api/key.pem', '/x')).toEqual({
      certDir: '/var/run/api',
      certName: 'cert.pem',
      keyName: 'key.pem',
    });
  });

  it('refuses one file without the other, or a key in another folder, naming the flag', () => {
    const fieldOf = (cert: string, key: string) => {
      try {
        servingCertificateFiles(cert, key, '/x');
      } catch (error) {
        return (error as { field?: string }).field;
      }
      return undefined;
    };
    expect(fieldOf('/a/tls.crt', '')).toBe('--tls-private-key-file');
    expect(fieldOf('', '/a/tls.key')).toBe('--tls-cert-file');
    expect(fieldOf('/a/tls.crt', '/b/tls.key')).toBe('--tls-private-key-file');
  });
});
