// TLS verification against a real apiserver: on by default (a CA that did not sign the
// serving certificate, or none, fails with an error naming the server, for requests and
// watches alike), off only when asked (`insecureSkipTlsVerify`, as kubectl's flag).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificate } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import { loadKubeConfig } from './load-kube-config.js';
import { TlsVerificationError } from './tls-verification-error.js';

const dir = mkdtempSync(join(tmpdir(), 'ctrlkit-tls-'));

/** The test apiserver's admin kubeconfig with its CA replaced by `caPem` (none when undefined). */
function kubeconfigWithCa(name: string, caPem: string | undefined): string {
  const config = JSON.parse(testKubeConfig().exportConfig()) as {
    clusters: Array<{ cluster: Record<string, unknown> }>;
  };
  for (const { cluster } of config.clusters) {
    delete cluster['certificate-authority-data'];
    delete cluster['certificate-authority'];
    if (caPem !== undefined)
      cluster['certificate-authority-data'] = Buffer.from(caPem).toString('base64');
  }
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

const server = testKubeConfig().getCurrentCluster()?.server ?? '';

describe('TLS verification', () => {
  it('refuses a server whose certificate the kubeconfig CA did not sign, naming the server', async () => {
    const otherCa = await createCertificate({ commonName: 'not the apiserver CA', usage: 'ca' });
    for (const file of [
      kubeconfigWithCa('other-ca', otherCa.certPem),
      kubeconfigWithCa('no-ca', undefined),
    ]) {
      const client = createClient(loadKubeConfig({ kubeconfig: file }));
      const listed = await client.list('namespaces').catch((error: unknown) => error);
      expect(TlsVerificationError.isInstance(listed)).toBe(true);
      expect(listed).toMatchObject({ reason: 'TlsVerification', server });
      expect((listed as Error).message).toContain(`the certificate of ${server} is not trusted`);
      // A watch (HTTP/2) fails the same way.
      const watched = await client
        .watch('/api/v1/namespaces', {}, 'application/json', () => {})
        .catch((error: unknown) => error);
      expect(watched).toMatchObject({ reason: 'TlsVerification', server });
      client.close();
    }
  });

  it('talks to it with insecureSkipTlsVerify, which overrides the kubeconfig', async () => {
    const otherCa = await createCertificate({ commonName: 'not the apiserver CA', usage: 'ca' });
    const file = kubeconfigWithCa('skipped', otherCa.certPem);
    const client = createClient(loadKubeConfig({ kubeconfig: file, insecureSkipTlsVerify: true }));
    const list = await client.list('namespaces');
    expect(list.items.length).toBeGreaterThan(0);
    client.close();
  });
});
