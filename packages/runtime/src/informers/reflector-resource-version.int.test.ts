// Which resourceVersion the reflector asks for, checked against a real kube-apiserver with
// its watch cache ON (as in production): the first list, a relist after a watch error, a
// relist after 410 Gone over a compacted etcd, and a relist after 504 "too large resource
// version".
import { once } from 'node:events';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Client, type ClientRequestInfo, createClient } from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import {
  type ControlPlane,
  createTestNamespace,
  noopLogger,
  startControlPlane,
} from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import {
  KubeConfig,
  type V1ConfigMap,
  type V1Role,
  type V1ServiceAccount,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newListWatch } from './list-watch.js';
import { SharedIndexInformer } from './shared-informer.js';

const fastBackoff = { initialMs: 100, maxMs: 500 };

/** How long a test waits for the informer to catch up, unless it says. */
const waitMs = 30_000;

/** The query of each LIST request, in order. */
function lists(requests: ClientRequestInfo[]): Array<Record<string, string>> {
  return requests
    .filter((r) => r.verb === 'list')
    .map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
}

function watches(requests: ClientRequestInfo[]): Array<Record<string, string>> {
  return requests
    .filter((r) => r.verb === 'watch')
    .map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
}

const ROLES = 'rbac.authorization.k8s.io/v1/roles';

/**
 * The test's own client for its set-up writes: not rate limited (as client-node was), so
 * hundreds of set-up writes do not queue behind the limiter.
 */
const adminClient = (kubeConfig: KubeConfig) =>
  createClient(kubeConfig, { qps: 10_000, burst: 10_000 });

async function createConfigMaps(core: Client, namespace: string, names: string[]) {
  for (let i = 0; i < names.length; i += 32) {
    await Promise.all(
      names
        .slice(i, i + 32)
        .map((name) =>
          core.create<V1ConfigMap>('configmaps', { metadata: { name } }, { namespace }),
        ),
    );
  }
}

async function listVersion(core: Client, namespace: string): Promise<number> {
  const list = await core.list<V1ConfigMap>('configmaps', { namespace });
  return Number(list.metadata?.resourceVersion);
}

/**
 * A kubeconfig for a ServiceAccount of `namespace` that may list ConfigMaps there but not
 * watch them (its Role `lister` can be changed later).
 */
async function listOnlyKubeConfig(kubeConfig: KubeConfig, namespace: string): Promise<KubeConfig> {
  const core = adminClient(kubeConfig);
  await core.create<V1ServiceAccount>(
    'serviceaccounts',
    { metadata: { name: 'lister' } },
    { namespace },
  );
  await core.create<V1Role>(
    ROLES,
    {
      metadata: { name: 'lister' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
    },
    { namespace },
  );
  await core.create(
    'rbac.authorization.k8s.io/v1/rolebindings',
    {
      metadata: { name: 'lister' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'lister' },
      subjects: [{ kind: 'ServiceAccount', name: 'lister', namespace }],
    },
    { namespace },
  );
  const token = await core.requestJson<{ status?: { token?: string } }>(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/lister/token`,
    {
      verb: 'post',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: [], expirationSeconds: 3600 },
      },
    },
  );
  core.close();
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('no cluster');
  const limited = new KubeConfig();
  limited.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'lister', token: token.status?.token }],
    contexts: [{ name: 'lister', cluster: cluster.name, user: 'lister' }],
    currentContext: 'lister',
  });
  return limited;
}

function informerOn(client: Client, namespace: string) {
  return new SharedIndexInformer({
    listWatch: newListWatch(client, 'configmaps', { namespace }),
    initialListMode: 'list',
    backoff: fastBackoff,
  });
}

describe('reflector resourceVersion on the shared control plane (watch cache on)', () => {
  let kubeConfig: KubeConfig;
  let core: Client;
  beforeAll(() => {
    kubeConfig = testKubeConfig();
    core = adminClient(kubeConfig);
  });
  afterAll(() => core.close());

  it('first lists at resourceVersion=0 with limit=500, answered whole by the watch cache (510 objects, one request), then watches from its version', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'rv0-');
    await createConfigMaps(
      core,
      namespace,
      Array.from({ length: 510 }, (_, i) => `cm-${i}`),
    );
    const requests: ClientRequestInfo[] = [];
    const informer = informerOn(
      createClient(kubeConfig, { onRequest: (info) => requests.push(info) }),
      namespace,
    );
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.whenSynced();
    await waitFor('the first WATCH', () => watches(requests).length > 0, { timeoutMs: waitMs });
    expect(lists(requests)).toEqual([{ resourceVersion: '0', limit: '500' }]);
    expect(informer.indexer.list()).toHaveLength(510);
    expect(watches(requests)[0]?.resourceVersion).toBe(informer.lastSyncResourceVersion);
    stop.abort();
    await running;
  });

  it('after a watch error (the watch refused with 403) lists again from the last version, in one request, and watches on once allowed', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'rv-watch-error-');
    await createConfigMaps(core, namespace, ['a', 'b']);
    const limited = await listOnlyKubeConfig(kubeConfig, namespace);
    const role = await core.get<V1Role>(ROLES, 'lister', { namespace });

    const requests: ClientRequestInfo[] = [];
    const informer = informerOn(
      createClient(limited, { onRequest: (info) => requests.push(info) }),
      namespace,
    );
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.whenSynced();
    const synced = informer.lastSyncResourceVersion;
    await waitFor('three LISTs', () => lists(requests).length >= 3, { timeoutMs: waitMs });
    // A relist from the last version: no limit, so the watch cache answers it.
    expect(lists(requests).slice(0, 2)).toEqual([
      { resourceVersion: '0', limit: '500' },
      { resourceVersion: synced },
    ]);
    await core.replace(ROLES, {
      ...role,
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] }],
    });
    const c = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'c' } },
      { namespace },
    );
    await waitFor(
      'c in the cache at its version',
      () =>
        informer.indexer.getByKey(`${namespace}/c`)?.metadata?.resourceVersion ===
        c.metadata?.resourceVersion,
      { timeoutMs: waitMs },
    );
    for (const query of lists(requests).slice(1)) {
      expect(query.limit).toBeUndefined();
      expect(Number(query.resourceVersion)).toBeGreaterThanOrEqual(Number(synced));
    }
    stop.abort();
    await running;
  });
});

describe('reflector resourceVersion across apiserver restarts and clusters (a plane of its own, watch cache on)', () => {
  let plane: ControlPlane;
  let core: Client;
  beforeAll(async () => {
    plane = await startControlPlane({
      logger: noopLogger,
      watchCache: true,
      etcdCompactionIntervalMs: 0,
      etcdFlags: { 'unsafe-no-fsync': 'true' },
    });
    core = adminClient(plane.kubeConfig);
  }, 120_000);
  afterAll(async () => {
    core?.close();
    await plane?.stop();
  });

  it('relists from the last version after the watch from it is answered 410 Gone (apiserver restarted over a compacted etcd)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'rv-gone-');
    await createConfigMaps(core, namespace, ['a', 'b', 'c']);
    const requests: ClientRequestInfo[] = [];
    const informer = informerOn(
      createClient(plane.kubeConfig, { onRequest: (info) => requests.push(info) }),
      namespace,
    );
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.whenSynced();
    await waitFor('the first WATCH', () => watches(requests).length > 0, { timeoutMs: waitMs });
    const synced = informer.lastSyncResourceVersion;

    // The new apiserver's watch cache starts past `synced`; etcd no longer has it either.
    await plane.stopApiServer();
    expect(await plane.compactEtcd()).toBeGreaterThan(Number(synced));
    await plane.startApiServer();

    await waitFor('the relist', () => lists(requests).length >= 2, { timeoutMs: waitMs });
    expect(lists(requests)).toEqual([
      { resourceVersion: '0', limit: '500' },
      { resourceVersion: synced },
    ]);
    const d = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'd' } },
      { namespace },
    );
    await waitFor(
      'd in the cache at its version',
      () =>
        informer.indexer.getByKey(`${namespace}/d`)?.metadata?.resourceVersion ===
        d.metadata?.resourceVersion,
      { timeoutMs: waitMs },
    );
    expect(informer.indexer.listKeys().sort()).toEqual(
      ['a', 'b', 'c', 'd'].map((n) => `${namespace}/${n}`),
    );
    stop.abort();
    await running;
  });

  it('relists at "" (a consistent read) after its version is answered 504 "too large resource version" (the informer moved to a cluster whose etcd is behind, and relists there)', async () => {
    // Two real clusters behind one address: this plane and the shared one. The informer
    // syncs on the one further ahead, then the address is switched to the other. A watch
    // from a version the server has not reached yet is accepted (it waits), so the informer
    // reaches the other cluster as an identity that may not watch: the 403 makes it relist
    // from its version, which is answered 504 "too large resource version".
    const shared = testKubeConfig();
    const sharedCore = adminClient(shared);
    const namespace = `rv-too-large-${Date.now().toString(36)}`;
    for (const api of [core, sharedCore])
      await api.create('namespaces', { metadata: { name: namespace } });
    // The shared plane is ahead: other test files write to it concurrently, which only moves
    // it further ahead, while this file's own plane stays where this test leaves it.
    const ahead = { kubeConfig: shared, core: sharedCore };
    const behind = { kubeConfig: plane.kubeConfig, core };
    await createConfigMaps(ahead.core, namespace, ['old-1', 'old-2']);
    await createConfigMaps(behind.core, namespace, ['new-1']);
    // Move the cluster ahead well past the other one.
    const target = (await listVersion(behind.core, namespace)) + 50;
    for (let n = 0; (await listVersion(ahead.core, namespace)) <= target; n++) {
      await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          ahead.core.replace<V1ConfigMap>(
            'configmaps',
            { metadata: { name: 'old-1' }, data: { n: `${n}-${i}` } },
            { namespace },
          ),
        ),
      );
    }

    const proxy = await SwitchingProxy.start(ahead.kubeConfig);
    const requests: ClientRequestInfo[] = [];
    const informer = informerOn(
      // No retries of the 504 (it carries Retry-After): the reflector's own choices are tested here.
      createClient(proxy.kubeConfig, { maxRetries: 0, onRequest: (info) => requests.push(info) }),
      namespace,
    );
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.whenSynced();
    await waitFor('the first WATCH', () => watches(requests).length > 0, { timeoutMs: waitMs });
    const synced = informer.lastSyncResourceVersion;
    expect(informer.indexer.listKeys().sort()).toEqual([
      `${namespace}/old-1`,
      `${namespace}/old-2`,
    ]);

    proxy.switchTo(await listOnlyKubeConfig(behind.kubeConfig, namespace));
    await waitFor('three LISTs', () => lists(requests).length >= 3, { timeoutMs: 60_000 });
    expect(lists(requests).slice(0, 3)).toEqual([
      { resourceVersion: '0', limit: '500' },
      { resourceVersion: synced },
      { limit: '500' },
    ]);
    await waitFor('the cache holding new-1 only', () => informer.indexer.listKeys().length === 1, {
      timeoutMs: waitMs,
    });
    expect(informer.indexer.listKeys()).toEqual([`${namespace}/new-1`]);
    expect(proxy.statuses).toContain(504);
    stop.abort();
    await running;
    await proxy.close();
    await sharedCore.delete('namespaces', namespace);
    sharedCore.close();
  });
});

/**
 * A plain-HTTP reverse proxy in front of one real apiserver at a time, each reached with
 * its own kubeconfig's TLS and credentials; `switchTo` drops open connections and sends
 * new requests to another. It records the status codes it relayed.
 */
class SwitchingProxy {
  readonly statuses: number[] = [];
  readonly #sockets = new Set<import('node:net').Socket>();
  #upstream: KubeConfig;
  #server!: http.Server;
  kubeConfig!: KubeConfig;

  private constructor(upstream: KubeConfig) {
    this.#upstream = upstream;
  }

  static async start(upstream: KubeConfig): Promise<SwitchingProxy> {
    const proxy = new SwitchingProxy(upstream);
    proxy.#server = http.createServer((req, res) => void proxy.#relay(req, res));
    proxy.#server.on('connection', (socket) => {
      proxy.#sockets.add(socket);
      socket.on('close', () => proxy.#sockets.delete(socket));
    });
    proxy.#server.listen(0, '127.0.0.1');
    await once(proxy.#server, 'listening');
    const { port } = proxy.#server.address() as AddressInfo;
    proxy.kubeConfig = new KubeConfig();
    proxy.kubeConfig.loadFromOptions({
      clusters: [{ name: 'proxy', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'anyone' }],
      contexts: [{ name: 'proxy', cluster: 'proxy', user: 'anyone' }],
      currentContext: 'proxy',
    });
    return proxy;
  }

  switchTo(upstream: KubeConfig): void {
    this.#upstream = upstream;
    for (const socket of this.#sockets) socket.destroy();
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #relay(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const upstream = this.#upstream;
    const options: https.RequestOptions = {};
    await upstream.applyToHTTPSOptions(options);
    const server = upstream.getCurrentCluster()?.server ?? '';
    const headers = { ...req.headers, ...options.headers };
    delete headers.host;
    const out = https.request(new URL(server + (req.url ?? '')), {
      ...options,
      headers,
      method: req.method,
    });
    out.on('response', (answer) => {
      this.statuses.push(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  }
}
