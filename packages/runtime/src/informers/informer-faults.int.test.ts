import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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
import { KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeletedFinalStateUnknown } from './key-func.js';
import { newListWatch } from './list-watch.js';
import { type ResourceEventHandler, SharedIndexInformer } from './shared-informer.js';

/** How long a test waits for the informer to catch up, unless it says. */
const waitMs = 30_000;

/** A TCP relay in front of the apiserver that a test can cut (refusing connections) and restore. */
class Relay {
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  port = 0;
  constructor(readonly targetPort: number) {}

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** Drops every connection and refuses new ones. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  }
}

let plane: ControlPlane;
let core: Client;

beforeAll(async () => {
  // A plane of its own: these tests stop the apiserver and compact etcd. Without the watch
  // cache, watches are served from etcd, so a compaction expires old versions at once.
  plane = await startControlPlane({
    logger: noopLogger,
    watchCache: false,
    etcdCompactionIntervalMs: 0,
    etcdFlags: { 'unsafe-no-fsync': 'true' },
  });
  core = createClient(plane.kubeConfig);
}, 120_000);
afterAll(async () => {
  core?.close();
  await plane?.stop();
});

function recordingHandler(log: string[]): ResourceEventHandler<KubeObject> {
  const id = (obj: KubeObject) => `${obj.metadata?.name}@${obj.metadata?.resourceVersion}`;
  return {
    onAdd: (obj) => log.push(`add ${id(obj)}`),
    onUpdate: (_old, obj) => log.push(`update ${id(obj)}`),
    onDelete: (obj) =>
      log.push(
        DeletedFinalStateUnknown.isInstance<KubeObject>(obj)
          ? `tombstone ${obj.key} last ${id(obj.obj)}`
          : `delete ${(obj as KubeObject).metadata?.name}`,
      ),
  };
}

describe('SharedIndexInformer under faults', () => {
  it('resumes its watch after an apiserver restart: no event lost, none delivered twice, no relist', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'restart-');
    for (let i = 0; i < 10; i++)
      await core.create<V1ConfigMap>('configmaps', { metadata: { name: `r${i}` } }, { namespace });
    const requests: ClientRequestInfo[] = [];
    const client = createClient(plane.kubeConfig, { onRequest: (info) => requests.push(info) });
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(client, 'configmaps', { namespace }),
      initialListMode: 'list',
    });
    const log: string[] = [];
    informer.addEventHandler(recordingHandler(log));
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.whenSynced();

    // A writer updates objects all along; it records what the apiserver acknowledged.
    const written = new Set<string>();
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const name = `r${n % 10}`;
        try {
          const cm = await core.replace<V1ConfigMap>(
            'configmaps',
            { metadata: { name }, data: { n: String(n) } },
            { namespace },
          );
          written.add(`update ${name}@${cm.metadata?.resourceVersion}`);
        } catch {
          await sleep(100);
        }
      }
    })();
    await sleep(500);
    await plane.restartApiServer();
    await sleep(1_500);
    writing = false;
    await writer;
    const created = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'after' } },
      { namespace },
    );
    await core.delete('configmaps', 'r0', { namespace });
    await waitFor(
      'the deletion of r0 and the creation of after',
      () =>
        log.includes('delete r0') && log.includes(`add after@${created.metadata?.resourceVersion}`),
      { timeoutMs: waitMs },
    );

    const counts = new Map<string, number>();
    for (const line of log) counts.set(line, (counts.get(line) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    for (const line of written) expect(log).toContain(line);
    expect(written.size).toBeGreaterThan(5);
    // The watch was resumed from the last resource version, not relisted.
    expect(requests.filter((r) => r.verb === 'list')).toHaveLength(1);
    expect(requests.filter((r) => r.verb === 'watch').length).toBeGreaterThan(1);
    // The cache matches the apiserver.
    const listed = await core.list<V1ConfigMap>('configmaps', { namespace });
    const expected = Object.fromEntries(
      listed.items.map((cm) => [cm.metadata?.name, cm.metadata?.resourceVersion]),
    );
    const cached = Object.fromEntries(
      informer.indexer.list().map((cm) => [cm.metadata?.name, cm.metadata?.resourceVersion]),
    );
    expect(cached).toEqual(expected);
    stop.abort();
    await running;
  });

  it('recovers from 410 Gone by relisting, with tombstones for objects deleted meanwhile', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'expired-');
    const initial = new Map<string, string>();
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const cm = await core.create<V1ConfigMap>(
        'configmaps',
        { metadata: { name }, data: { v: '1' } },
        { namespace },
      );
      initial.set(name, cm.metadata?.resourceVersion ?? '');
    }
    // The informer reaches the apiserver through a relay the test can cut.
    const relay = new Relay(plane.apiServerPort);
    await relay.listen();
    const relayed = new KubeConfig();
    relayed.loadFromString(plane.kubeConfig.exportConfig());
    const cluster = relayed.getCurrentCluster();
    relayed.clusters = relayed.clusters.map((c) =>
      c.name === cluster?.name ? { ...c, server: `https://127.0.0.1:${relay.port}` } : c,
    );
    const requests: ClientRequestInfo[] = [];
    const client = createClient(relayed, { onRequest: (info) => requests.push(info) });
    const informer = new SharedIndexInformer({
      listWatch: newListWatch(client, 'configmaps', { namespace }),
      initialListMode: 'list',
    });
    const log: string[] = [];
    informer.addEventHandler(recordingHandler(log));
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.whenSynced();
    await waitFor('the first WATCH', () => requests.some((r) => r.verb === 'watch'), {
      timeoutMs: waitMs,
    });
    await sleep(200);
    log.length = 0;

    await relay.cut();
    await core.delete('configmaps', 'b', { namespace });
    await core.delete('configmaps', 'c', { namespace });
    const d = await core.replace<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'd' }, data: { v: '2' } },
      { namespace },
    );
    const f = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'f' } },
      { namespace },
    );
    await plane.compactEtcd();
    await relay.listen();

    await waitFor('four events', () => log.length >= 4, { timeoutMs: waitMs });
    await sleep(300);
    expect(log).toEqual([
      `tombstone ${namespace}/b last b@${initial.get('b')}`,
      `tombstone ${namespace}/c last c@${initial.get('c')}`,
      `update d@${d.metadata?.resourceVersion}`,
      `add f@${f.metadata?.resourceVersion}`,
    ]);
    expect(requests.filter((r) => r.verb === 'list')).toHaveLength(2);
    expect(informer.indexer.listKeys().sort()).toEqual(
      ['a', 'd', 'e', 'f'].map((n) => `${namespace}/${n}`),
    );
    stop.abort();
    await running;
    await relay.cut();
  });
});
