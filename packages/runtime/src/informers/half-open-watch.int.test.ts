import {
  type Client,
  type ClientRequestInfo,
  createClient,
  type KubeObject,
} from '@ctrlkit/client';
import { FreezingProxy } from '@ctrlkit/client/testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newListWatch } from './list-watch.js';
import { SharedIndexInformer } from './shared-informer.js';

let proxy: FreezingProxy;
let proxied: KubeConfig;
let core: Client;

beforeAll(async () => {
  const kubeConfig = testKubeConfig();
  core = createClient(kubeConfig);
  const cluster = kubeConfig.getCurrentCluster();
  proxy = new FreezingProxy(Number(new URL(cluster?.server ?? '').port));
  await proxy.listen();
  proxied = new KubeConfig();
  proxied.loadFromString(kubeConfig.exportConfig());
  proxied.clusters = proxied.clusters.map((c) =>
    c.name === cluster?.name ? { ...c, server: `https://127.0.0.1:${proxy.port}` } : c,
  );
});
afterAll(async () => {
  core?.close();
  await proxy?.close();
});

describe('a watch on a half-open connection', () => {
  it('is closed by the HTTP/2 ping and resumed on a fresh connection within 45 s, without a relist', async () => {
    const namespace = await createTestNamespace(testKubeConfig(), 'half-open-');
    const requests: ClientRequestInfo[] = [];
    const client = createClient(proxied, { onRequest: (info) => requests.push(info) });
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(client, 'configmaps', { namespace }),
      initialListMode: 'list',
    });
    const seen: string[] = [];
    informer.addEventHandler({ onAdd: (obj: KubeObject) => seen.push(obj.metadata?.name ?? '') });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    try {
      await informer.whenSynced();
      await waitFor('the first WATCH', () => requests.some((r) => r.verb === 'watch'), {
        timeoutMs: 10_000,
      });
      await core.create('configmaps', { metadata: { name: 'before' } }, { namespace });
      await waitFor('the event before the freeze', () => seen.includes('before'), {
        timeoutMs: 10_000,
      });

      expect(proxy.freeze()).toBeGreaterThan(0);
      const frozenAt = performance.now();
      await core.create('configmaps', { metadata: { name: 'after' } }, { namespace });
      await waitFor('the object created after the freeze', () => seen.includes('after'), {
        timeoutMs: 50_000,
        intervalMs: 100,
      });
      const recoveredMs = performance.now() - frozenAt;
      console.log(`half-open watch: recovered after ${Math.round(recoveredMs)} ms`);
      expect(recoveredMs).toBeLessThan(45_000);
      // Resumed from its resource version on a new connection: a second WATCH, no second LIST.
      expect(requests.filter((r) => r.verb === 'list')).toHaveLength(1);
      expect(requests.filter((r) => r.verb === 'watch').length).toBeGreaterThan(1);
    } finally {
      stop.abort();
      await running;
      client.close();
    }
  }, 70_000);
});
