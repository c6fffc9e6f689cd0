import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noopLogger } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { KubeConfigError } from './kube-config-error.js';
import { loadKubeConfig } from './load-kube-config.js';

const dir = mkdtempSync(join(tmpdir(), 'ctrlkit-kubeconfig-'));

function kubeconfigFile(name: string, server: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: '${server}'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: ${name}, context: {cluster: c, user: u}}, {name: other, context: {cluster: c, user: u, namespace: x}}]
current-context: ${name}
`,
  );
  return file;
}

const flag = kubeconfigFile('flag', 'https://flag:6443');
const fromEnv = kubeconfigFile('env', 'https://env:6443');
const home = join(dir, 'home');
mkdirSync(join(home, '.kube'), { recursive: true });
writeFileSync(
  join(home, '.kube', 'config'),
  `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://home:6443'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: home, context: {cluster: c, user: u}}]
current-context: home
`,
);
const serviceAccountDir = join(dir, 'serviceaccount');
mkdirSync(serviceAccountDir);
writeFileSync(join(serviceAccountDir, 'token'), 'token');
writeFileSync(join(serviceAccountDir, 'namespace'), 'operators\n');
const inCluster = { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };

const server = (options: Parameters<typeof loadKubeConfig>[0]) =>
  loadKubeConfig({ serviceAccountDir, homeDir: home, ...options }).getCurrentCluster()?.server;

describe('loadKubeConfig', () => {
  it('takes --kubeconfig first, then KUBECONFIG, then in-cluster, then ~/.kube/config', () => {
    const env = { KUBECONFIG: fromEnv, ...inCluster };
    expect(server({ kubeconfig: flag, env })).toBe('https://flag:6443');
    expect(server({ env })).toBe('https://env:6443');
    expect(server({ env: inCluster })).toBe('https://10.0.0.1:443');
    expect(server({ env: {} })).toBe('https://home:6443');
  });

  it('reads the in-cluster namespace and brackets an IPv6 service host', () => {
    const config = loadKubeConfig({
      serviceAccountDir,
      env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
    });
    expect(config.getCurrentCluster()?.server).toBe('https://[fd00::1]:443');
    expect(config.getContextObject(config.getCurrentContext())?.namespace).toBe('operators');
  });

  it('merges the files of KUBECONFIG, the first one wins', () => {
    const config = loadKubeConfig({ env: { KUBECONFIG: `${fromEnv}:${flag}` }, homeDir: home });
    expect(config.getCurrentContext()).toBe('env');
    expect(config.getContextObject('flag')).not.toBeNull();
  });

  it('selects a context, and rejects an unknown one', () => {
    expect(loadKubeConfig({ kubeconfig: flag, context: 'other' }).getCurrentContext()).toBe(
      'other',
    );
    expect(() => loadKubeConfig({ kubeconfig: flag, context: 'nope' })).toThrow(
      expect.objectContaining({ reason: 'NoSuchContext' }),
    );
  });

  it('throws NotFound when there is no source, Unreadable for a missing file', () => {
    const nowhere = { env: {}, homeDir: join(dir, 'nobody'), serviceAccountDir: join(dir, 'none') };
    const notFound = (() => {
      try {
        loadKubeConfig(nowhere);
      } catch (error) {
        return error;
      }
    })();
    expect(KubeConfigError.isInstance(notFound)).toBe(true);
    expect(notFound).toMatchObject({ reason: 'NotFound' });
    expect(() => loadKubeConfig({ ...nowhere, kubeconfig: join(dir, 'missing') })).toThrow(
      expect.objectContaining({ reason: 'Unreadable' }),
    );
  });

  it('verifies TLS by default; --insecure-skip-tls-verify overrides the cluster, drops its CA and warns', async () => {
    const withCa = join(dir, 'with-ca');
    writeFileSync(
      withCa,
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://ca:6443', certificate-authority-data: ${Buffer.from('a CA').toString('base64')}}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: ca, context: {cluster: c, user: u}}]
current-context: ca
`,
    );
    const warnings: Array<{ context: object; message: string | undefined }> = [];
    const logger = {
      ...noopLogger,
      warn: (context: object, message?: string) => warnings.push({ context, message }),
    };
    const verified = loadKubeConfig({ kubeconfig: withCa, logger });
    expect(verified.getCurrentCluster()).toMatchObject({ skipTLSVerify: false });
    const options: RequestOptions = {};
    await verified.applyToHTTPSOptions(options);
    expect(options.rejectUnauthorized).toBeUndefined();
    expect(String(options.ca)).toBe('a CA');
    expect(warnings).toEqual([]);

    const skipping = loadKubeConfig({ kubeconfig: withCa, insecureSkipTlsVerify: true, logger });
    expect(skipping.getCurrentCluster()).toEqual({
      name: 'c',
      server: 'https://ca:6443',
      skipTLSVerify: true,
    });
    const insecure: RequestOptions = {};
    await skipping.applyToHTTPSOptions(insecure);
    expect(insecure.rejectUnauthorized).toBe(false);
    expect(insecure.ca).toBeUndefined();
    expect(warnings).toEqual([
      {
        context: { server: 'https://ca:6443', source: '--insecure-skip-tls-verify' },
        message: expect.stringContaining('TLS verification is off'),
      },
    ]);
    // A kubeconfig that turns verification off itself is warned about too.
    loadKubeConfig({ kubeconfig: skippingFile(), logger });
    expect(warnings[1]?.context).toEqual({ server: 'https://skip:6443', source: 'kubeconfig' });
  });
});

function skippingFile(): string {
  const file = join(dir, 'skipping');
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://skip:6443', insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: s, context: {cluster: c, user: u}}]
current-context: s
`,
  );
  return file;
}
