import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, type ClientRequestInfo, createClient } from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverResource } from './discovery.js';
import { DeletedFinalStateUnknown } from './key-func.js';
import { newListWatchFromClient, type WatchEvent } from './list-watch.js';
import { SharedIndexInformer } from './shared-informer.js';
import { SharedInformerFactory } from './shared-informer-factory.js';

/** How long a test waits for the informer to catch up, unless it says. */
const waitMs = 15_000;

let kubeConfig: KubeConfig;
let core: Client;
let namespace: string;
const stop = new AbortController();

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  core = createClient(kubeConfig);
  namespace = await createTestNamespace(kubeConfig, 'informers-');
});
afterAll(() => {
  stop.abort();
  core.close();
});

function counting(): { client: Client; requests: ClientRequestInfo[] } {
  const requests: ClientRequestInfo[] = [];
  return {
    client: createClient(kubeConfig, { onRequest: (info) => requests.push(info) }),
    requests,
  };
}

describe('SharedInformerFactory against a real apiserver', () => {
  it('shares one list and one watch between two handlers of the same resource', async () => {
    const { client, requests } = counting();
    const factory = new SharedInformerFactory(client, { namespace, initialListMode: 'list' });
    const one = factory.forResource('configmaps');
    const two = factory.forResource('configmaps');
    expect(two).toBe(one);
    const seenOne: string[] = [];
    const seenTwo: string[] = [];
    one.addEventHandler({ onAdd: (obj) => seenOne.push(obj.metadata?.name ?? '') });
    two.addEventHandler({ onAdd: (obj) => seenTwo.push(obj.metadata?.name ?? '') });
    factory.start(stop.signal);
    const synced = await factory.waitForCacheSync(stop.signal);
    expect([...synced.values()]).toEqual([true]);
    await core.create('configmaps', { metadata: { name: 'shared' } }, { namespace });
    await waitFor(
      'both handlers to see shared',
      () => seenOne.includes('shared') && seenTwo.includes('shared'),
      { timeoutMs: waitMs },
    );
    expect(seenTwo).toEqual(seenOne);
    expect(requests.filter((r) => r.verb === 'list')).toHaveLength(1);
    expect(requests.filter((r) => r.verb === 'watch')).toHaveLength(1);
  });

  it('delivers add, update and delete from the watch, in order, to a lister-visible cache', async () => {
    const factory = new SharedInformerFactory(kubeConfig, { namespace });
    const informer = factory.forResource('configmaps', { labelSelector: 'suite=crud' });
    const log: string[] = [];
    informer.addEventHandler({
      onAdd: (obj) => log.push(`add ${obj.metadata?.name}`),
      onUpdate: (_old, obj) =>
        log.push(`update ${obj.metadata?.name} ${(obj as { data?: { v?: string } }).data?.v}`),
      onDelete: (obj) => log.push(`delete ${(obj as KubernetesObject).metadata?.name}`),
    });
    factory.start(stop.signal);
    await factory.waitForCacheSync(stop.signal);
    const labels = { suite: 'crud' };
    await core.create(
      'configmaps',
      { metadata: { name: 'x', labels }, data: { v: '1' } },
      { namespace },
    );
    await core.replace(
      'configmaps',
      { metadata: { name: 'x', labels }, data: { v: '2' } },
      { namespace },
    );
    await core.delete('configmaps', 'x', { namespace });
    await waitFor('add, update and delete of x', () => log.length === 3, { timeoutMs: waitMs });
    expect(log).toEqual(['add x', 'update x 2', 'delete x']);
    const lister = factory.lister('configmaps', { labelSelector: 'suite=crud' });
    expect(lister.namespace(namespace).get('x')).toBeUndefined();
  });

  it('restricts objects by field selector and by label selector', async () => {
    for (const [name, tier] of [
      ['sel-a', 'front'],
      ['sel-b', 'back'],
      ['sel-c', 'front'],
    ] as const) {
      await core.create('configmaps', { metadata: { name, labels: { tier } } }, { namespace });
    }
    const factory = new SharedInformerFactory(kubeConfig, { namespace });
    const byField = factory.forResource('configmaps', { fieldSelector: 'metadata.name=sel-b' });
    const byLabel = factory.forResource('configmaps', { labelSelector: 'tier=front' });
    factory.start(stop.signal);
    await factory.waitForCacheSync(stop.signal);
    expect(byField.indexer.listKeys()).toEqual([`${namespace}/sel-b`]);
    expect(byLabel.indexer.listKeys().sort()).toEqual([`${namespace}/sel-a`, `${namespace}/sel-c`]);
    await core.create(
      'configmaps',
      { metadata: { name: 'sel-d', labels: { tier: 'front' } } },
      { namespace },
    );
    await waitFor('three selected ConfigMaps', () => byLabel.indexer.size === 3, {
      timeoutMs: waitMs,
    });
    expect(byField.indexer.size).toBe(1);
  });

  it('watches cluster-scoped resources (namespaces) across the cluster', async () => {
    const factory = new SharedInformerFactory(kubeConfig, { initialListMode: 'list' });
    const namespaces = factory.forResource('namespaces');
    factory.start(stop.signal);
    await factory.waitForCacheSync(stop.signal);
    expect(namespaces.indexer.getByKey(namespace)?.metadata?.name).toBe(namespace);
    const created = await createTestNamespace(kubeConfig, 'informers-cs-');
    await waitFor(
      'the new namespace in the cache',
      () => namespaces.indexer.getByKey(created) !== undefined,
      { timeoutMs: waitMs },
    );
    expect(factory.lister('namespaces').get(created)?.kind).toBe('Namespace');
  });

  it('streams the initial list (sendInitialEvents) on kube-apiserver 1.37 without a LIST request', async () => {
    await core.create('configmaps', { metadata: { name: 'streamed' } }, { namespace });
    const { client, requests } = counting();
    const factory = new SharedInformerFactory(client, { namespace, initialListMode: 'stream' });
    const informer = factory.forResource('configmaps');
    const initial: boolean[] = [];
    informer.addEventHandler({ onAdd: (_obj, isInInitialList) => initial.push(isInInitialList) });
    factory.start(stop.signal);
    await factory.waitForCacheSync(stop.signal);
    expect(informer.indexer.getByKey(`${namespace}/streamed`)).toBeDefined();
    expect(initial.length).toBeGreaterThan(0);
    expect(initial.every(Boolean)).toBe(true);
    expect(requests.map((r) => r.verb)).toEqual(['watch']);
    expect(requests[0]?.url).toContain('sendInitialEvents=true');
    await core.create('configmaps', { metadata: { name: 'streamed-2' } }, { namespace });
    await waitFor(
      'streamed-2 in the cache',
      () => informer.indexer.getByKey(`${namespace}/streamed-2`) !== undefined,
      { timeoutMs: waitMs },
    );
    expect(requests).toHaveLength(1);
  });

  it('caches metadata only (PartialObjectMetadata) when asked', async () => {
    await core.create(
      'configmaps',
      {
        metadata: { name: 'meta-only', labels: { m: '1' } },
        data: { big: 'x'.repeat(1000) },
      },
      { namespace },
    );
    const factory = new SharedInformerFactory(kubeConfig, { namespace });
    for (const initialListMode of ['list', 'stream'] as const) {
      const f = new SharedInformerFactory(kubeConfig, { namespace, initialListMode });
      const informer = f.forResource('configmaps', { metadataOnly: true, labelSelector: 'm=1' });
      f.start(stop.signal);
      await f.waitForCacheSync(stop.signal);
      const cached = informer.indexer.getByKey(`${namespace}/meta-only`) as KubernetesObject & {
        data?: unknown;
      };
      expect(cached.kind).toBe('PartialObjectMetadata');
      expect(cached.apiVersion).toBe('meta.k8s.io/v1');
      expect(cached.data).toBeUndefined();
      expect(cached.metadata?.labels).toEqual({ m: '1' });
      expect(cached.metadata?.managedFields).toBeUndefined();
    }
    void factory;
  });

  it('informs on a custom resource given by group/version/plural', async () => {
    await installCRDs(kubeConfig, [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.informers.ctrlkit.dev' },
        spec: {
          group: 'informers.ctrlkit.dev',
          names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
          scope: 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    spec: { type: 'object', properties: { size: { type: 'integer' } } },
                  },
                },
              },
            },
          ],
        },
      },
    ]);
    const gvr = { group: 'informers.ctrlkit.dev', version: 'v1', resource: 'widgets' };
    await core.create(
      gvr,
      {
        apiVersion: 'informers.ctrlkit.dev/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 1 },
      },
      { namespace },
    );
    const factory = new SharedInformerFactory(kubeConfig, { namespace });
    const informer = factory.forResource<KubernetesObject & { spec: { size: number } }>(gvr);
    const sizes: number[] = [];
    informer.addEventHandler({ onUpdate: (_old, obj) => sizes.push(obj.spec.size) });
    factory.start(stop.signal);
    await factory.waitForCacheSync(stop.signal);
    // The first list is at resourceVersion 0, which the watch cache answers: a cache a create
    // behind (a CI run saw it for the new CRD's cache) delivers w1 by the watch just after.
    const w1 = await waitFor(
      'w1 in the cache',
      () => informer.indexer.getByKey(`${namespace}/w1`),
      {
        timeoutMs: waitMs,
      },
    );
    expect(w1?.kind).toBe('Widget');
    await core.patch(gvr, 'w1', [{ op: 'replace', path: '/spec/size', value: 2 }], {
      namespace,
      type: 'json',
    });
    await waitFor('the size 2 seen', () => sizes.includes(2), { timeoutMs: waitMs });
    expect(
      factory
        .lister<KubernetesObject & { spec: { size: number } }>(gvr)
        .namespace(namespace)
        .get('w1')?.spec.size,
    ).toBe(2);
  });
});

describe('discoverResource', () => {
  it('finds the resource and scope of a kind through API discovery', async () => {
    expect(await discoverResource(kubeConfig, 'v1', 'ConfigMap')).toEqual({
      group: '',
      version: 'v1',
      resource: 'configmaps',
      kind: 'ConfigMap',
      namespaced: true,
    });
    expect(await discoverResource(kubeConfig, 'apps/v1', 'Deployment')).toMatchObject({
      group: 'apps',
      resource: 'deployments',
    });
    expect((await discoverResource(kubeConfig, 'v1', 'Node')).namespaced).toBe(false);
    await expect(discoverResource(kubeConfig, 'v1', 'Nope')).rejects.toThrow(
      /serves no kind "Nope"/,
    );
  });
});

describe('newListWatchFromClient', () => {
  it('lists and watches one resource in one namespace with a field selector', async () => {
    await core.create('configmaps', { metadata: { name: 'lw-target' } }, { namespace });
    await core.create('configmaps', { metadata: { name: 'lw-other' } }, { namespace });
    const lw = newListWatchFromClient(
      kubeConfig,
      'configmaps',
      namespace,
      'metadata.name=lw-target',
    );
    const list = await lw.list({});
    expect(list.items.map((o) => o.metadata?.name)).toEqual(['lw-target']);
    const events: WatchEvent[] = [];
    const abort = new AbortController();
    const watching = lw
      .watch({ resourceVersion: list.metadata?.resourceVersion, signal: abort.signal }, (event) =>
        events.push(event),
      )
      .catch(() => undefined);
    await sleep(200);
    await core.delete('configmaps', 'lw-other', { namespace });
    await core.delete('configmaps', 'lw-target', { namespace });
    await waitFor('a watch event', () => events.length > 0, { timeoutMs: waitMs });
    abort.abort();
    await watching;
    expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([
      ['DELETED', 'lw-target'],
    ]);
  });

  it('works as the ListWatch of a hand-built SharedIndexInformer', async () => {
    const lw = newListWatchFromClient(kubeConfig, 'v1/configmaps', namespace);
    const informer = new SharedIndexInformer({ listWatch: lw, name: 'cms' });
    const deletes: unknown[] = [];
    informer.addEventHandler({ onDelete: (obj) => deletes.push(obj) });
    void informer.run(stop.signal);
    expect(await informer.whenSynced(stop.signal)).toBe(true);
    expect(informer.indexer.size).toBeGreaterThan(0);
    expect(deletes.some((d) => DeletedFinalStateUnknown.isInstance(d))).toBe(false);
  });
});
