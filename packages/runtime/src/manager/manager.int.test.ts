import { createClient, formatMicroTime } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap, V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Controller } from '../controller/controller.js';
import { LeaderElectionError } from '../leader-election/leader-election-error.js';
import { Manager } from './manager.js';

const LEASES = 'coordination.k8s.io/v1/leases';

// Short leader election timings (lease 4 s, renew deadline 3 s, retry 0.5 s), with room for a busy machine.
const election = { leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 500 };
const endpoints = { metricsBindAddress: '127.0.0.1:0', healthProbeBindAddress: '127.0.0.1:0' };

async function scrape(address: string | undefined, path = '/metrics') {
  const response = await fetch(`http://${address}${path}`);
  return { status: response.status, body: await response.text() };
}

/** The value of one sample line of a Prometheus text exposition, e.g. `foo{a="b"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('Manager on a real apiserver', () => {
  it('syncs informers, leads, reconciles, serves metrics and probes, stops and releases the Lease', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'manager-');
    const manager = new Manager({
      kubeConfig,
      ...endpoints,
      leaderElection: {
        leaseName: 'manager-test',
        leaseNamespace: namespace,
        identity: 'one',
        ...election,
      },
      cache: { namespace },
    });
    const { client } = manager;
    const configMaps = manager.informerFactory.forResource<V1ConfigMap>('v1/configmaps');
    const reconciled: string[] = [];
    const controller = new Controller({
      name: 'configmaps',
      reconcile: async (key) => {
        const [ns, name] = key.split('/') as [string, string];
        const cm = configMaps.indexer.getByKey(key);
        if (cm === undefined || cm.data?.seen === 'yes') return;
        await client.patch(
          'configmaps',
          name,
          [{ op: 'add', path: '/data', value: { seen: 'yes' } }],
          {
            namespace: ns,
            type: 'json',
          },
        );
        reconciled.push(key);
      },
    }).watch(configMaps);
    manager.add(controller);
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await manager.elected;
    expect(manager.isLeader()).toBe(true);

    await client.create('configmaps', { metadata: { name: 'a' } }, { namespace });
    await waitFor('the reconcile', () => reconciled.includes(`${namespace}/a`), {
      timeoutMs: 20_000,
    });
    const patched = await client.get<V1ConfigMap>('configmaps', 'a', { namespace });
    expect(patched.data).toEqual({ seen: 'yes' });

    const { body } = await scrape(manager.metricsAddress);
    expect(sample(body, `leader_election_master_status{name="manager-test"}`)).toBe(1);
    expect(
      sample(body, 'controller_runtime_reconcile_total{controller="configmaps",result="success"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(body, 'controller_runtime_max_concurrent_reconciles{controller="configmaps"}'),
    ).toBe(1);
    expect(sample(body, 'workqueue_adds_total{name="configmaps"}')).toBeGreaterThanOrEqual(2);
    const host = new URL(kubeConfig.getCurrentCluster()?.server as string).host;
    // POSTs: the ConfigMap, the Lease, and maybe already the "became leader" Event.
    expect(
      sample(body, `rest_client_requests_total{code="201",method="POST",host="${host}"}`),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(body, `rest_client_requests_total{code="200",method="PATCH",host="${host}"}`),
    ).toBe(1);
    expect(body).toContain(
      `rest_client_request_duration_seconds_count{verb="PATCH",host="${host}"} 1`,
    );
    // The informer's health: watching, heard from recently, never without a watch for long.
    const informer = `v1/configmaps in ${namespace}`;
    expect(
      sample(body, `ctrlkit_informer_watch_state{informer="${informer}",state="watching"}`),
    ).toBe(1);
    expect(
      sample(body, `ctrlkit_informer_watch_state{informer="${informer}",state="backing-off"}`),
    ).toBe(0);
    expect(sample(body, `ctrlkit_informer_unwatched_seconds{informer="${informer}"}`)).toBe(0);
    expect(
      sample(body, `ctrlkit_informer_last_event_age_seconds{informer="${informer}"}`),
    ).toBeLessThan(20);
    // The informer's LIST and WATCH (GET) are counted too, as client-go counts its informers'.
    expect(
      sample(body, `rest_client_requests_total{code="200",method="GET",host="${host}"}`),
    ).toBeGreaterThanOrEqual(2);
    // The Lease renewals are counted too (PUT).
    expect(body).toMatch(
      new RegExp(`rest_client_requests_total\\{code="200",method="PUT",host="${host}"\\} \\d+`),
    );

    expect(await scrape(manager.healthProbeAddress, '/readyz?verbose')).toEqual({
      status: 200,
      body: '[+]informers ok\nhealthz check passed\n',
    });
    expect(await scrape(manager.healthProbeAddress, '/healthz?verbose')).toEqual({
      status: 200,
      body: '[+]informers ok\n[+]leaderElection ok\nhealthz check passed\n',
    });

    stop.abort();
    await running;
    const admin = createClient(kubeConfig);
    const lease = await admin.get<V1Lease>(LEASES, 'manager-test', { namespace });
    admin.close();
    expect(lease.spec?.holderIdentity ?? '').toBe('');
    await expect(fetch(`http://${manager.metricsAddress}/metrics`)).rejects.toThrow();
  });

  it('stops leader-only runnables and rejects with LeaseLost when another holder takes the Lease, without waiting for them', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'manager-');
    const manager = new Manager({
      kubeConfig,
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
      // A lost lease stops at once (as controller-runtime): the stuck runnable below would
      // otherwise hold the stop for this long, past the test's timeout.
      gracefulShutdownTimeoutMs: 600_000,
      leaderElection: {
        leaseName: 'lost',
        leaseNamespace: namespace,
        identity: 'victim',
        ...election,
      },
    });
    let leaderStopped = false;
    let agentStopped = false;
    const until = (signal: AbortSignal, onStop: () => void) =>
      new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          onStop();
          resolve();
        }),
      );
    manager.add({
      name: 'leader-work',
      start: (signal) => until(signal, () => (leaderStopped = true)),
    });
    manager.add({
      name: 'agent',
      needLeaderElection: false,
      start: (signal) => until(signal, () => (agentStopped = true)),
    });
    // Work that ignores its signal, as a reconcile hung on a dead connection.
    manager.add({ name: 'stuck', start: () => new Promise<void>(() => {}) });
    const running = manager.start(new AbortController().signal);
    await manager.elected;

    // Another process overwrites the Lease, as if it had taken it over (retrying when a
    // renewal slips in between its read and its write).
    const leases = createClient(kubeConfig);
    for (;;) {
      const lease = await leases.get<V1Lease>(LEASES, 'lost', { namespace });
      const now = formatMicroTime(new Date());
      try {
        await leases.replace(LEASES, {
          ...lease,
          spec: {
            holderIdentity: 'thief',
            leaseDurationSeconds: 60,
            acquireTime: now,
            renewTime: now,
            leaseTransitions: (lease.spec?.leaseTransitions ?? 0) + 1,
          },
        });
        break;
      } catch (error) {
        if (statusCode(error) !== 409) throw error;
      }
    }
    const error = await running.catch((e: unknown) => e);
    expect(LeaderElectionError.isInstance(error)).toBe(true);
    expect((error as LeaderElectionError).reason).toBe('LeaseLost');
    expect(leaderStopped).toBe(true);
    expect(agentStopped).toBe(true);
    const after = await leases.get<V1Lease>(LEASES, 'lost', { namespace });
    leases.close();
    expect(after.spec?.holderIdentity).toBe('thief');
  });
});
