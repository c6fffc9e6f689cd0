import { InvalidArgumentError } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { Counter } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Controller } from '../controller/controller.js';
import { Manager } from './manager.js';
import { ManagerError } from './manager-error.js';
import type { ManagerOptions } from './manager-options.js';

/** A configuration that points nowhere: these tests start no informer and send no request. */
function kubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return config;
}

const offline = { metricsBindAddress: '0', healthProbeBindAddress: '0' } as const;
const local = { metricsBindAddress: '127.0.0.1:0', healthProbeBindAddress: '127.0.0.1:0' } as const;

function manager(options: Partial<ManagerOptions> = {}): Manager {
  return new Manager({ kubeConfig: kubeConfig(), ...offline, ...options });
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function get(address: string | undefined, path: string) {
  const response = await fetch(`http://${address}${path}`);
  return {
    status: response.status,
    body: await response.text(),
    type: response.headers.get('content-type'),
  };
}

describe('Manager options', () => {
  const invalid: Array<[string, Partial<ManagerOptions> | Record<string, unknown>]> = [
    ['kubeConfig', { kubeConfig: {} as KubeConfig }],
    ['kubeConfig', { kubeConfig: new KubeConfig() }],
    ['metricsBindAddress', { metricsBindAddress: '8080' }],
    ['metricsBindAddress', { metricsBindAddress: ':70000' }],
    ['healthProbeBindAddress', { healthProbeBindAddress: 'localhost' }],
    ['qps', { qps: 0 }],
    ['qps', { qps: Number.NaN }],
    ['burst', { burst: 0 }],
    ['burst', { burst: 1.5 }],
    ['userAgent', { userAgent: '' }],
    ['userAgent', { userAgent: 'a\nb' }],
    ['gracefulShutdownTimeoutMs', { gracefulShutdownTimeoutMs: -1 }],
    ['gracefulShutdownTimeoutMs', { gracefulShutdownTimeoutMs: Number.NaN }],
    ['informerUnwatchedTimeoutMs', { informerUnwatchedTimeoutMs: 0 }],
    ['informerUnwatchedTimeoutMs', { informerUnwatchedTimeoutMs: Number.NaN }],
    ['informerUnwatchedTimeoutMs', { informerUnwatchedTimeoutMs: '5000' }],
    ['leaderElection', { leaderElection: 'yes' }],
    ['leaderElection.leaseName', { leaderElection: { leaseName: '', leaseNamespace: 'ns' } }],
    ['leaderElection.leaseNamespace', { leaderElection: { leaseName: 'l', leaseNamespace: '' } }],
    [
      'leaderElection.identity',
      { leaderElection: { leaseName: 'l', leaseNamespace: 'ns', identity: '' } },
    ],
    [
      'leaderElection.leaseDurationMs',
      { leaderElection: { leaseName: 'l', leaseNamespace: 'ns', leaseDurationMs: 5_000 } },
    ],
    [
      'leaderElection.renewDeadlineMs',
      {
        leaderElection: {
          leaseName: 'l',
          leaseNamespace: 'ns',
          renewDeadlineMs: 1_000,
          retryPeriodMs: 1_000,
        },
      },
    ],
    [
      'leaderElection.retryPeriodMs',
      { leaderElection: { leaseName: 'l', leaseNamespace: 'ns', retryPeriodMs: 0 } },
    ],
    [
      'leaderElection.releaseOnCancel',
      { leaderElection: { leaseName: 'l', leaseNamespace: 'ns', releaseOnCancel: 'no' } },
    ],
    ['leaderElection.leaseNamspace', { leaderElection: { leaseName: 'l', leaseNamspace: 'ns' } }],
    ['metricsBindAdress', { metricsBindAdress: ':8080' }],
  ];
  it.each(invalid)('rejects an invalid %s at construction, naming it', (field, options) => {
    let error: unknown;
    try {
      manager(options as Partial<ManagerOptions>);
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).field).toBe(field);
  });

  it('rejects leader election timings under their old names, naming the new ones', () => {
    expect(() =>
      manager({
        leaderElection: { leaseName: 'l', leaseNamespace: 'ns', leaseDuration: 15_000 },
      } as never),
    ).toThrow('invalid leaderElection.leaseDuration: renamed to leaderElection.leaseDurationMs');
  });

  it('rejects an invalid runnable and health check, naming the field', () => {
    const m = manager();
    expect(() => m.add({ name: '', start: () => {} })).toThrow(/runnable\.name/);
    expect(() => m.add({ name: 'x' } as never)).toThrow(/runnable\.start/);
    expect(() => m.add({ name: 'x', needLeaderElection: 1 as never, start: () => {} })).toThrow(
      /runnable\.needLeaderElection/,
    );
    expect(() => m.addHealthzCheck('a b', () => {})).toThrow(InvalidArgumentError);
    m.addReadyzCheck('db', () => {});
    expect(() => m.addReadyzCheck('db', () => {})).toThrow(/exists/);
  });
});

describe('Manager lifecycle', () => {
  it('runs every runnable without election, stops them on abort and resolves', async () => {
    const m = manager();
    const events: string[] = [];
    const runnable = (name: string, needLeaderElection?: boolean) => ({
      name,
      ...(needLeaderElection !== undefined && { needLeaderElection }),
      start: (signal: AbortSignal) =>
        new Promise<void>((resolve) => {
          events.push(`start ${name}`);
          signal.addEventListener('abort', () => {
            events.push(`stop ${name}`);
            resolve();
          });
        }),
    });
    m.add(runnable('leader')).add(runnable('every', false));
    const stop = new AbortController();
    const started = m.start(stop.signal);
    await m.elected;
    await tick();
    expect(events.sort()).toEqual(['start every', 'start leader']);
    expect(m.isLeader()).toBe(true);
    stop.abort();
    await started;
    // Leader-only runnables are stopped (and awaited) before the others.
    expect(events.slice(2)).toEqual(['stop leader', 'stop every']);
  });

  it('drains a controller: a reconcile in flight when the stop comes finishes', async () => {
    const m = manager();
    let release: () => void = () => {};
    const reconciled: string[] = [];
    const controller = new Controller({
      name: 'slow',
      reconcile: async (key) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        reconciled.push(key);
      },
    });
    m.add(controller);
    const stop = new AbortController();
    const started = m.start(stop.signal);
    await m.elected;
    controller.enqueue('ns/a');
    await tick();
    stop.abort();
    await tick();
    expect(reconciled).toEqual([]);
    release();
    await started;
    expect(reconciled).toEqual(['ns/a']);
  });

  it('rejects with RunnableFailed when a runnable fails, after stopping the others', async () => {
    const m = manager();
    let otherStopped = false;
    m.add({ name: 'broken', start: () => Promise.reject(new Error('boom')) });
    m.add({
      name: 'other',
      needLeaderElection: false,
      start: (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            otherStopped = true;
            resolve();
          }),
        ),
    });
    const error = await m.start(new AbortController().signal).catch((e: unknown) => e);
    expect(ManagerError.isInstance(error)).toBe(true);
    expect((error as ManagerError).reason).toBe('RunnableFailed');
    expect((error as ManagerError).runnable).toBe('broken');
    expect(otherStopped).toBe(true);
  });

  it('gives up on runnables that outlast gracefulShutdownTimeoutMs', async () => {
    const clock = new FakeClock();
    const m = manager({ clock, gracefulShutdownTimeoutMs: 5_000 });
    m.add({ name: 'stuck', start: () => new Promise<void>(() => {}) });
    const stop = new AbortController();
    let settled: unknown = 'pending';
    const started = m.start(stop.signal).then(
      () => (settled = 'resolved'),
      (error: unknown) => (settled = error),
    );
    await m.elected;
    stop.abort();
    for (let i = 0; i < 5; i++) await tick();
    clock.step(4_999);
    for (let i = 0; i < 5; i++) await tick();
    expect(settled).toBe('pending');
    clock.step(1);
    await started;
    expect(ManagerError.isInstance(settled)).toBe(true);
    expect((settled as ManagerError).reason).toBe('GracefulShutdownTimeout');
    expect((settled as ManagerError).runnable).toBe('stuck');
  });

  it('refuses a second start and an add after start', async () => {
    const m = manager();
    const stop = new AbortController();
    const started = m.start(stop.signal);
    await expect(m.start(stop.signal)).rejects.toMatchObject({ reason: 'AlreadyStarted' });
    expect(() => m.add({ name: 'late', start: () => {} })).toThrow(/after start/);
    stop.abort();
    await started;
  });
});

describe('Manager endpoints', () => {
  it('serves /metrics from its own registry; two managers in one process do not clash', async () => {
    const a = manager(local);
    const b = manager(local);
    new Counter({ name: 'app_things_total', help: 'things', registers: [a.registry] }).inc(3);
    const widgetsA = new Controller({ name: 'widgets', reconcile: () => {} });
    a.add(widgetsA);
    b.add(new Controller({ name: 'widgets', reconcile: () => {} }));
    widgetsA.enqueue('ns/a');
    const stop = new AbortController();
    const running = [a.start(stop.signal), b.start(stop.signal)];
    await Promise.all([a.elected, b.elected]);
    await tick();
    const scrapeA = await get(a.metricsAddress, '/metrics');
    const scrapeB = await get(b.metricsAddress, '/metrics');
    expect(scrapeA.status).toBe(200);
    expect(scrapeA.type).toContain('text/plain');
    expect(scrapeA.body).toContain('app_things_total 3');
    expect(scrapeB.body).not.toContain('app_things_total');
    for (const body of [scrapeA.body, scrapeB.body]) {
      expect(body).toContain(
        'controller_runtime_max_concurrent_reconciles{controller="widgets"} 1',
      );
      expect(body).toContain('# TYPE rest_client_requests_total counter');
    }
    expect(scrapeA.body).toContain('workqueue_adds_total{name="widgets"} 1');
    expect(scrapeB.body).not.toContain('workqueue_adds_total{name="widgets"}');
    expect((await get(a.metricsAddress, '/other')).status).toBe(404);
    stop.abort();
    await Promise.all(running);
    await expect(fetch(`http://${a.metricsAddress}/metrics`)).rejects.toThrow();
  });

  it('serves /healthz and /readyz with named checks, ?verbose, ?exclude and /readyz/<name>', async () => {
    const m = manager(local);
    let dbUp = false;
    m.addReadyzCheck('db', async () => {
      if (!dbUp) throw new Error('db is down');
    });
    m.addHealthzCheck('loop', () => {});
    const stop = new AbortController();
    const running = m.start(stop.signal);
    await m.elected;
    const at = m.healthProbeAddress;
    expect(await get(at, '/healthz')).toMatchObject({ status: 200, body: 'ok' });
    expect((await get(at, '/healthz?verbose')).body).toBe(
      '[+]informers ok\n[+]loop ok\nhealthz check passed\n',
    );
    const notReady = await get(at, '/readyz');
    expect(notReady.status).toBe(500);
    expect(notReady.body).toBe(
      '[-]db failed: reason withheld\n[+]informers ok\nhealthz check failed\n',
    );
    expect(await get(at, '/readyz/db')).toMatchObject({
      status: 500,
      body: 'internal server error: db is down\n',
    });
    expect(await get(at, '/readyz/informers')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(at, '/readyz/nope')).toMatchObject({ status: 404 });
    expect((await get(at, '/readyz?exclude=db&exclude=nope&verbose')).body).toBe(
      '[+]db excluded: ok\n[+]informers ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
    );
    dbUp = true;
    expect(await get(at, '/readyz')).toMatchObject({ status: 200, body: 'ok' });
    stop.abort();
    await running;
  });

  it('rejects start with ListenFailed naming the option when the address is taken', async () => {
    const first = manager({ metricsBindAddress: '127.0.0.1:0' });
    const stop = new AbortController();
    const running = first.start(stop.signal);
    await first.elected;
    const second = manager({ metricsBindAddress: first.metricsAddress as string });
    const error = await second.start(new AbortController().signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'ListenFailed', field: 'metricsBindAddress' });
    stop.abort();
    await running;
  });
});

describe('Manager.add with a Controller', () => {
  it('runs a controller added with needLeaderElection: false before and without leading', async () => {
    const m = manager({
      leaderElection: { leaseName: 'never', leaseNamespace: 'ns' },
    });
    const reconciled: string[] = [];
    const agent = new Controller({ name: 'agent', reconcile: (key) => void reconciled.push(key) });
    m.add(agent, { needLeaderElection: false });
    expect(() =>
      m.add(new Controller({ name: 'x', reconcile: () => {} }), {
        needLeaderElection: 'no' as never,
      }),
    ).toThrow(/options\.needLeaderElection/);
    const stop = new AbortController();
    const running = m.start(stop.signal);
    agent.enqueue('ns/a');
    for (let i = 0; i < 20 && reconciled.length === 0; i++) await tick();
    // The Lease cannot be reached (the cluster points nowhere), yet the agent runs.
    expect(reconciled).toEqual(['ns/a']);
    expect(m.isLeader()).toBe(false);
    stop.abort();
    await running;
  });
});
