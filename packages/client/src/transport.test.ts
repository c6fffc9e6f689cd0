import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type TestServer } from '../test/test-server.js';
import { createClient } from './client.js';

let served: TestServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A kubeconfig for `served` with `server` as its cluster URL (a path prefix, user info). */
function kubeConfigFor(server: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}

describe('Transport request targets', () => {
  it('appends the path to the server URL path prefix, encodes what a URL would, and sends its user info', async () => {
    const seen: Array<{ url?: string; host?: string; authorization?: string }> = [];
    served = await serve((req, res) => {
      seen.push({
        url: req.url,
        host: req.headers.host,
        authorization: req.headers.authorization,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const prefixed = createClient(kubeConfigFor(`http://${served.host}/k8s/clusters/c-1//`));
    await prefixed.requestJson('GET', '/api/v1/namespaces/ns/pods?labelSelector=a%3Db');
    await prefixed.requestJson('GET', '/api/v1/namespaces/ns/pods/a b?x="y"');
    await prefixed.requestJson('GET', '/api/v1/namespaces/ns/../other/pods');
    const withUser = createClient(kubeConfigFor(`http://me:p%40ss@${served.host}`));
    await withUser.requestJson('GET', '/api/v1/pods');
    expect(seen.map((s) => s.url)).toEqual([
      '/k8s/clusters/c-1/api/v1/namespaces/ns/pods?labelSelector=a%3Db',
      '/k8s/clusters/c-1/api/v1/namespaces/ns/pods/a%20b?x=%22y%22',
      '/k8s/clusters/c-1/api/v1/namespaces/other/pods',
      '/api/v1/pods',
    ]);
    expect(seen.every((s) => s.host === served?.host)).toBe(true);
    expect(seen[3]?.authorization).toBe(`Basic ${Buffer.from('me:p@ss').toString('base64')}`);
  });
});
