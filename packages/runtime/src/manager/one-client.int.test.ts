// The one client against a real apiserver: one pool, the rate limit on the informers' LISTs,
// rest_client_* for every request, the User-Agent as the apiserver records it, and the
// apiserver's own 429s (API Priority and Fairness) retried after its Retry-After.
import diagnostics from 'node:diagnostics_channel';
import { type Client, type ClientRequestInfo, createClient } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';
import { FakeClock, waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import {
  type CoreV1Event,
  KubeConfig,
  type V1ConfigMap,
  type V1Lease,
} from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CoreV1EventSink } from '../events/event-sink.js';
import { newListWatch } from '../informers/list-watch.js';
import { SharedInformerFactory } from '../informers/shared-informer-factory.js';
import { LeaseLock } from '../leader-election/lease-lock.js';
import { PrometheusRestClientMetrics } from '../metrics/rest-client-metrics.js';
import { Manager } from './manager.js';

const settle = async () => {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

/** The sum of a counter's samples whose labels match `labels`. */
async function total(registry: Registry, name: string, labels: Record<string, string> = {}) {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))
    .reduce((sum, v) => sum + v.value, 0);
}

describe('the one client on a real apiserver', () => {
  it('sends the informers’ LIST and every other request over one kept-alive connection, one after the other', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'one-pool-');
    const sockets: unknown[] = [];
    const onSocket = (message: unknown) => void sockets.push(message);
    const client = createClient(kubeConfig, { qps: Number.POSITIVE_INFINITY });
    diagnostics.subscribe('net.client.socket', onSocket);
    try {
      await newListWatch(client, 'configmaps', { namespace }).list({});
      await client.create('configmaps', { metadata: { name: 'a' } }, { namespace });
      await new CoreV1EventSink(client).create({
        metadata: { name: 'a.1', namespace },
        involvedObject: { kind: 'ConfigMap', name: 'a', namespace },
        reason: 'Tested',
        message: 'one pool',
      });
      const lock = new LeaseLock({ client, namespace, name: 'pool', identity: 'me' });
      const now = new Date();
      await lock.create({
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: now,
        renewTime: now,
        leaderTransitions: 0,
      });
      for (let i = 0; i < 5; i++) await client.get('configmaps', 'a', { namespace });
      expect(sockets).toHaveLength(1);
    } finally {
      diagnostics.unsubscribe('net.client.socket', onSocket);
    }
  });

  it('holds the informers’ LISTs beyond the burst until the bucket refills at qps, and counts LIST and WATCH in rest_client_*', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'limited-lists-');
    const clock = new FakeClock();
    const registry = new Registry();
    const sent: ClientRequestInfo[] = [];
    const client = createClient(kubeConfig, {
      qps: 1,
      burst: 1,
      clock,
      metrics: new PrometheusRestClientMetrics(registry),
      onRequest: (info) => void sent.push(info),
    });
    const factory = new SharedInformerFactory(client, { namespace, initialListMode: 'list' });
    const configMaps = factory.forResource<V1ConfigMap>('configmaps');
    const secrets = factory.forResource('secrets');
    const stop = new AbortController();
    factory.start(stop.signal);
    try {
      await waitFor('the first LIST and its WATCH', () =>
        sent.filter((s) => s.verb === 'watch').length === 1 ? sent : undefined,
      );
      await settle();
      // One token: the second informer's LIST waits for the next one, a second away.
      expect(sent.filter((s) => s.verb === 'list')).toHaveLength(1);
      expect(configMaps.hasSynced() !== secrets.hasSynced()).toBe(true);
      clock.step(1000);
      await waitFor('both informers synced', () => configMaps.hasSynced() && secrets.hasSynced());
      await waitFor('both watches', () => sent.filter((s) => s.verb === 'watch').length === 2);
      expect(sent.filter((s) => s.verb === 'list')).toHaveLength(2);
      await waitFor(
        'every request counted',
        async () => (await total(registry, 'rest_client_requests_total', { method: 'GET' })) === 4,
      );
      expect(await total(registry, 'rest_client_requests_total', { code: '200' })).toBe(4);
      // The two LISTs went through the bucket, the watches not.
      expect(await registry.metrics()).toMatch(
        /rest_client_rate_limiter_duration_seconds_count\{verb="GET",host="[^"]+"\} 2\n/,
      );
    } finally {
      stop.abort();
      await factory.shutdown();
    }
  });

  it('names the program in the User-Agent: the apiserver records it as the field manager of the manager’s writes, its Lease and its Events included', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'user-agent-');
    const manager = new Manager({
      kubeConfig,
      program: { name: 'ua-probe', version: '1.2.3' },
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
      leaderElection: { leaseName: 'ua-probe', leaseNamespace: namespace },
      cache: { namespace },
    });
    expect(manager.informerFactory.client).toBe(manager.client);
    expect(manager.client.userAgent).toMatch(/^ua-probe\/1\.2\.3 \(\w+\/\w+\) ctrlkit\/\d/);
    manager.informerFactory.forResource('configmaps');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      await manager.elected;
      const { client } = manager;
      const created = await client.create<V1ConfigMap>(
        'configmaps',
        { metadata: { name: 'named' }, data: { a: 'b' } },
        { namespace },
      );
      manager.getEventRecorder('ua-probe').event(created, 'Normal', 'Named', 'by its program');
      const managers = async (resource: string, name: string) =>
        (await client.get(resource, name, { namespace })).metadata?.managedFields?.map(
          (f) => f.manager,
        );
      expect(await managers('configmaps', 'named')).toEqual(['ua-probe']);
      expect(await managers('coordination.k8s.io/v1/leases', 'ua-probe')).toEqual(['ua-probe']);
      const event = await waitFor('the event', async () =>
        (await client.list<CoreV1Event>('events', { namespace })).items.find(
          (e) => e.reason === 'Named',
        ),
      );
      expect(event?.metadata?.managedFields?.map((f) => f.manager)).toEqual(['ua-probe']);
      const lease = await client.get<V1Lease>('coordination.k8s.io/v1/leases', 'ua-probe', {
        namespace,
      });
      expect(typeof lease.spec?.renewTime).toBe('string');
    } finally {
      stop.abort();
      await running;
    }
  });

  it('waits out the apiserver’s own 429s (API Priority and Fairness rejecting) and counts each', async () => {
    const admin = createClient(testKubeConfig());
    const namespace = await createTestNamespace(testKubeConfig(), 'apf-');
    const name = namespace;
    const user = await serviceAccountKubeConfig(admin, namespace, name);
    await admin.create('flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name },
      spec: {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 1,
          lendablePercent: 0,
          limitResponse: { type: 'Reject' },
        },
      },
    });
    await admin.create('flowcontrol.apiserver.k8s.io/v1/flowschemas', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name },
      spec: {
        priorityLevelConfiguration: { name },
        matchingPrecedence: 100,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'ServiceAccount', serviceAccount: { name, namespace } }],
            resourceRules: [
              { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] },
            ],
          },
        ],
      },
    });
    try {
      for (let i = 0; i < 100; i++) {
        await admin.create(
          'configmaps',
          { metadata: { name: `cm-${i}` }, data: { i: `${i}` } },
          { namespace },
        );
      }
      // Without retries: bursts of concurrent LISTs until the apiserver rejects some.
      const noRetries = new Registry();
      const impatient = createClient(user, {
        qps: Number.POSITIVE_INFINITY,
        maxRetries: 0,
        metrics: new PrometheusRestClientMetrics(noRetries),
      });
      const burst = (client: Client, size = 40) =>
        Promise.allSettled(
          Array.from({ length: size }, () => client.list('configmaps', { namespace })),
        );
      const rejected = await waitFor(
        'a 429 from the apiserver',
        async () => (await burst(impatient)).filter((r) => r.status === 'rejected'),
        { until: (r) => r.length > 0, timeoutMs: 60_000, intervalMs: 200 },
      );
      expect(rejected.every((r) => statusCode((r as PromiseRejectedResult).reason) === 429)).toBe(
        true,
      );
      // With the default retries: every LIST of a burst succeeds, some after a 429.
      const registry = new Registry();
      const patient = createClient(user, {
        qps: Number.POSITIVE_INFINITY,
        metrics: new PrometheusRestClientMetrics(registry),
      });
      const outcome = await waitFor(
        'a burst that met 429s and still succeeded',
        async () => {
          // 10 at once: one seat serves them within the retries (40 retrying in step after the
          // same Retry-After could exhaust 10 retries each: seen once in CI, 5 of 40).
          const results = await burst(patient, 10);
          return {
            failed: results.filter((r) => r.status === 'rejected').length,
            retried: await total(registry, 'rest_client_requests_total', { code: '429' }),
          };
        },
        { until: (o) => o.retried > 0, timeoutMs: 60_000, intervalMs: 200 },
      );
      expect(outcome.failed).toBe(0);
    } finally {
      await admin.delete('flowcontrol.apiserver.k8s.io/v1/flowschemas', name).catch(() => {});
      await admin
        .delete('flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations', name)
        .catch(() => {});
    }
  });
});

/** A kubeconfig for a new ServiceAccount `name` (a token from the TokenRequest API) that may read ConfigMaps in `namespace`. */
async function serviceAccountKubeConfig(admin: Client, namespace: string, name: string) {
  await admin.create('serviceaccounts', { metadata: { name } }, { namespace });
  await admin.create(
    'rbac.authorization.k8s.io/v1/roles',
    {
      metadata: { name },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    },
    { namespace },
  );
  await admin.create(
    'rbac.authorization.k8s.io/v1/rolebindings',
    {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
    { namespace },
  );
  const request = (await admin.requestJson(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
    { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } },
  )) as { status: { token: string } };
  const admins = testKubeConfig();
  const cluster = admins.getCurrentCluster();
  if (cluster === null) throw new Error('no cluster');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [cluster],
    users: [{ name, token: request.status.token }],
    contexts: [{ name, cluster: cluster.name, user: name }],
    currentContext: name,
  });
  return kubeConfig;
}
