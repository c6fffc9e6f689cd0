import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import type * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LoadedKubeConfig } from './loaded-kube-config.js';

const dir = mkdtempSync(join(tmpdir(), 'ctrlkit-loaded-kubeconfig-'));
writeFileSync(join(dir, 'ca.crt'), 'the CA');
writeFileSync(join(dir, 'token'), 'from-a-file');
const plugin = join(dir, 'credential-plugin');
writeFileSync(
  plugin,
  `#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-exec"}}'
`,
);
chmodSync(plugin, 0o755);

const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- {name: files, cluster: {server: 'https://files:6443', certificate-authority: ca.crt, tls-server-name: api.example}}
- {name: inline, cluster: {server: 'https://inline:6443', certificate-authority-data: ${Buffer.from('inline CA').toString('base64')}, insecure-skip-tls-verify: true}}
users:
- {name: token, user: {token: secret, as: someone}}
- {name: cert, user: {client-certificate-data: ${Buffer.from('cert').toString('base64')}, client-key-data: ${Buffer.from('key').toString('base64')}}}
- {name: basic, user: {username: ann, password: pw}}
- {name: exec, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never}}}
- {name: file, user: {auth-provider: {name: tokenFile, config: {tokenFile: ${join(dir, 'token')}}}}}
contexts:
- {name: token, context: {cluster: files, user: token}}
- {name: cert, context: {cluster: inline, user: cert, namespace: ns}}
- {name: basic, context: {cluster: inline, user: basic}}
- {name: exec, context: {cluster: files, user: exec}}
- {name: file, context: {cluster: files, user: file}}
current-context: token
`;

/** What client-node's own KubeConfig and ours put into request options for `context`. */
async function bothFor(context: string) {
  const file = join(dir, 'config');
  writeFileSync(file, kubeconfig);
  const theirs = new KubeConfig();
  theirs.loadFromFile(file);
  theirs.setCurrentContext(context);
  const ours = LoadedKubeConfig.fromFile(file);
  ours.setCurrentContext(context);
  const read = async (config: { applyToHTTPSOptions(o: https.RequestOptions): Promise<void> }) => {
    const options: https.RequestOptions = {};
    await config.applyToHTTPSOptions(options);
    const { agent: _agent, ...rest } = options;
    return JSON.parse(JSON.stringify(rest));
  };
  return { ours: await read(ours), theirs: await read(theirs), loaded: ours };
}

describe('LoadedKubeConfig', () => {
  it.each(['token', 'cert', 'basic', 'exec', 'file'])(
    'puts into the request options for the %s user what client-node’s KubeConfig puts',
    async (context) => {
      const { ours, theirs } = await bothFor(context);
      expect(ours).toEqual(theirs);
    },
  );

  it('reads credentials as client-node does: files relative to the kubeconfig, plugins, token files', async () => {
    expect((await bothFor('token')).ours).toMatchObject({
      servername: 'api.example',
      ca: { type: 'Buffer', data: [...Buffer.from('the CA')] },
      headers: { Authorization: 'Bearer secret', 'Impersonate-User': 'someone' },
    });
    expect((await bothFor('exec')).ours.headers.Authorization).toBe('Bearer from-exec');
    expect((await bothFor('file')).ours.headers.Authorization).toBe('Bearer from-a-file');
    const { ours, loaded } = await bothFor('cert');
    expect(ours.rejectUnauthorized).toBe(false);
    expect(loaded.getCurrentCluster()?.server).toBe('https://inline:6443');
    expect(loaded.getContextObject(loaded.getCurrentContext())?.namespace).toBe('ns');
  });

  it('decodes inline certificate data once, reads certificate files for every request', async () => {
    const { loaded } = await bothFor('cert');
    const apply = async () => {
      const options: https.RequestOptions = {};
      await loaded.applyToHTTPSOptions(options);
      return options;
    };
    const first = await apply();
    const second = await apply();
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
    expect(String(second.cert)).toBe('cert');
    // Data edited in the loaded config is used from the next request on.
    const user = loaded.getCurrentUser() as { certData?: string };
    user.certData = Buffer.from('rotated cert').toString('base64');
    expect(String((await apply()).cert)).toBe('rotated cert');

    loaded.setCurrentContext('token');
    const before = (await apply()).ca;
    writeFileSync(join(dir, 'ca.crt'), 'the rotated CA');
    try {
      const after = (await apply()).ca;
      expect(String(before)).toBe('the CA');
      expect(String(after)).toBe('the rotated CA');
    } finally {
      writeFileSync(join(dir, 'ca.crt'), 'the CA');
    }
  });

  it('exports and converts to client-node’s KubeConfig with the same content', async () => {
    const { loaded } = await bothFor('basic');
    const full = loaded.toKubeConfig();
    expect(full.getCurrentContext()).toBe('basic');
    expect(JSON.parse(full.exportConfig())).toEqual(JSON.parse(loaded.exportConfig()));
  });
});
