// The initial list against a real kube-apiserver: what the parser does while a LIST
// arrives (managedFields left out, kind and apiVersion written in) gives the same cache as
// the default transform; the cache of a stopped informer can be collected; 'auto' falls
// back to a LIST where the apiserver serves no streaming list.
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  type Client,
  type ClientRequestInfo,
  createClient,
  type KubeObject,
} from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import {
  type ControlPlane,
  createTestNamespace,
  noopLogger,
  startControlPlane,
} from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaNamespaceKeyFunc } from './key-func.js';
import { newListWatch } from './list-watch.js';
import { SharedIndexInformer } from './shared-informer.js';
import { dropManagedFields } from './transform.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const COUNT = 60;

let kubeConfig: KubeConfig;
let namespace: string;
let client: Client;

/** Annotations that look like the fields the parser looks for, and text that needs escapes. */
const tricky = {
  'example.com/json': '{"metadata":{"managedFields":[{"manager":"x"}]},"items":[]}',
  'example.com/key': '"managedFields":[',
  'example.com/text': 'quote " backslash \\ brackets ]}[{ ü€𝄞',
};

/** ConfigMaps with the managedFields of two managers (an update and a server-side apply). */
async function createConfigMaps(): Promise<void> {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  for (let i = 0; i < COUNT; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, COUNT - i) }, async (_, j) => {
        const name = `cm-${i + j}`;
        await client.requestJson('POST', `${path}?fieldManager=creator`, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name, labels: { app: 'initial-list' }, annotations: tricky },
            data: { a: `${i + j}`, managedFields: 'a data key of that name stays' },
          },
        });
        await client.requestJson('PATCH', `${path}/${name}?fieldManager=applier&force=true`, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { b: 'applied' } },
          contentType: 'application/apply-patch+yaml',
        });
      }),
    );
  }
}

/** The objects of a plain LIST as the default transform caches them, by key. */
async function expectedCache(): Promise<Map<string, KubeObject>> {
  const list = (await client.getJson(
    `/api/v1/namespaces/${namespace}/configmaps`,
    {},
    'application/json',
  )) as { items: KubeObject[] };
  const cache = new Map<string, KubeObject>();
  for (const item of list.items) {
    expect(item.metadata?.managedFields?.length).toBe(2);
    const cached = dropManagedFields({ kind: 'ConfigMap', apiVersion: 'v1', ...item });
    cache.set(metaNamespaceKeyFunc(cached), cached);
  }
  return cache;
}

async function synced<T extends KubeObject>(
  informer: SharedIndexInformer<T>,
): Promise<() => Promise<void>> {
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  await informer.whenSynced();
  return async () => {
    stop.abort('test done');
    await running;
  };
}

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  client = createClient(kubeConfig);
  namespace = await createTestNamespace(kubeConfig, 'initial-list-');
  await createConfigMaps();
}, 120_000);

describe('the initial LIST', () => {
  it('caches what the default transform makes of a plain LIST: managedFields left out while parsing, kind and apiVersion written in', async () => {
    const expected = await expectedCache();
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(client, 'configmaps', { namespace }),
      initialListMode: 'list',
    });
    const stop = await synced(informer);
    expect(new Map(informer.indexer.entries())).toEqual(expected);
    for (const obj of informer.indexer.list()) {
      expect(obj.metadata?.managedFields).toBeUndefined();
      expect(Object.keys(obj).slice(0, 2)).toEqual(['kind', 'apiVersion']);
    }
    await stop();
  });

  it('keeps managedFields with another transform (none)', async () => {
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(client, 'configmaps', { namespace }),
      initialListMode: 'list',
      transform: null,
    });
    const stop = await synced(informer);
    expect(informer.indexer.size).toBe(COUNT);
    for (const obj of informer.indexer.list()) {
      expect(obj.metadata?.managedFields?.map((entry) => entry.manager).sort()).toEqual([
        'applier',
        'creator',
      ]);
      expect(obj.kind).toBe('ConfigMap');
    }
    await stop();
  });

  it('lets a stopped informer’s cache be collected while its client’s connections stay open', async () => {
    // A client of its own: the LIST is the first request on its connection, which Node
    // keeps reachable (with the listeners of that request) while the connection lives.
    const rest = createClient(kubeConfig);
    let informer: SharedIndexInformer<KubeObject> | undefined = new SharedIndexInformer<KubeObject>(
      {
        listWatch: newListWatch(rest, 'configmaps', { namespace }),
        initialListMode: 'list',
      },
    );
    const stop = await synced(informer);
    const cached = new WeakRef(informer.indexer.list()[0] as object);
    await stop();
    informer = undefined;
    await sleep(50);
    gc();
    gc();
    // The LIST's connection is back in `rest`'s pool: nothing there holds the objects.
    expect(cached.deref()).toBeUndefined();
    expect(rest.kubeConfig).toBe(kubeConfig);
  });
});

describe("'auto' against an apiserver without streaming lists (WatchList off; a plane of its own)", () => {
  let plane: ControlPlane;
  beforeAll(async () => {
    plane = await startControlPlane({
      logger: noopLogger,
      apiServerFlags: { 'feature-gates': 'WatchList=false' },
    });
  }, 120_000);
  afterAll(async () => {
    await plane?.stop();
  });

  it("falls back to a LIST for the attempt, then watches from the list's version", async () => {
    const requests: ClientRequestInfo[] = [];
    const rest = createClient(plane.kubeConfig, { onRequest: (info) => requests.push(info) });
    const ns = await createTestNamespace(plane.kubeConfig, 'auto-');
    for (const name of ['a', 'b', 'c']) {
      await rest.create('configmaps', { metadata: { name } }, { namespace: ns });
    }
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(rest, 'configmaps', { namespace: ns }),
      initialListMode: 'auto',
    });
    const stop = await synced(informer);
    expect(informer.indexer.listKeys().sort()).toEqual([`${ns}/a`, `${ns}/b`, `${ns}/c`]);
    const queries = requests
      .filter((r) => r.verb === 'list' || r.verb === 'watch')
      .map((r) => ({
        verb: r.verb,
        ...Object.fromEntries(new URL(r.url, 'http://x').searchParams),
      }));
    expect(queries[0]).toMatchObject({ verb: 'watch', sendInitialEvents: 'true' });
    expect(queries[1]).toMatchObject({ verb: 'list', resourceVersion: '0' });
    await waitFor(
      'the watch after the list',
      () => requests.filter((r) => r.verb === 'watch').length >= 2,
      { timeoutMs: 15_000 },
    );
    const watch = requests
      .filter((r) => r.verb === 'watch')
      .map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams))[1];
    expect(watch?.sendInitialEvents).toBeUndefined();
    expect(watch?.resourceVersion).toBe(informer.lastSyncResourceVersion);
    await stop();
  });

  it("'stream' does not list: it retries the refused streaming list and does not sync", async () => {
    const requests: ClientRequestInfo[] = [];
    const rest = createClient(plane.kubeConfig, { onRequest: (info) => requests.push(info) });
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(rest, 'configmaps', { namespace: 'default' }),
      initialListMode: 'stream',
      backoff: { initialMs: 50, maxMs: 100 },
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await waitFor('three streaming list attempts', () => requests.length >= 3, {
      timeoutMs: 15_000,
    });
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(informer.hasSynced()).toBe(false);
    expect(
      requests.every((r) => r.verb === 'watch' && r.url.includes('sendInitialEvents=true')),
    ).toBe(true);
    stop.abort('test done');
    await running;
  });
});
