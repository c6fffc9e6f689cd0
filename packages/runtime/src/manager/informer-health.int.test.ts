import { waitFor } from '@ctrlkit/core/testing';
import {
  type ControlPlane,
  createTestNamespace,
  noopLogger,
  startControlPlane,
} from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Manager } from './manager.js';

let plane: ControlPlane;

beforeAll(async () => {
  // A plane of its own: this test stops its apiserver.
  plane = await startControlPlane({ logger: noopLogger, etcdFlags: { 'unsafe-no-fsync': 'true' } });
}, 120_000);
afterAll(async () => {
  await plane?.stop();
});

async function get(address: string | undefined, path: string) {
  const response = await fetch(`http://${address}${path}`);
  return { status: response.status, body: await response.text() };
}

describe('informer health on /healthz and /metrics', () => {
  it('turns /healthz unhealthy once an informer has had no watch for longer than the bound, and healthy again once it watches', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'health-');
    const manager = new Manager({
      kubeConfig: plane.kubeConfig,
      metricsBindAddress: '127.0.0.1:0',
      healthProbeBindAddress: '127.0.0.1:0',
      informerUnwatchedTimeoutMs: 3_000,
      cache: { namespace },
    });
    manager.informerFactory.forResource('v1/configmaps');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      await manager.elected;
      const informer = `v1/configmaps in ${namespace}`;
      const state = async (s: string) =>
        (await get(manager.metricsAddress, '/metrics')).body.includes(
          `ctrlkit_informer_watch_state{informer="${informer}",state="${s}"} 1`,
        );
      await waitFor('the watch', () => state('watching'), { timeoutMs: 10_000 });
      expect(await get(manager.healthProbeAddress, '/healthz')).toEqual({
        status: 200,
        body: 'ok',
      });

      const stoppedAt = performance.now();
      await plane.stopApiServer();
      await waitFor('backing off', () => state('backing-off'), { timeoutMs: 10_000 });
      // Within the bound, still healthy: an apiserver restart must not get the pod restarted.
      expect((await get(manager.healthProbeAddress, '/healthz')).status).toBe(200);
      await waitFor(
        '/healthz to fail',
        async () => (await get(manager.healthProbeAddress, '/healthz')).status === 500,
        { timeoutMs: 10_000, intervalMs: 200 },
      );
      expect(performance.now() - stoppedAt).toBeGreaterThanOrEqual(3_000);
      const failed = await get(manager.healthProbeAddress, '/healthz/informers');
      expect(failed.status).toBe(500);
      expect(failed.body).toMatch(
        new RegExp(
          `no working watch for over 3000 ms: v1/configmaps in ${namespace} \\(backing-off for \\d+ s\\)`,
        ),
      );

      await plane.startApiServer();
      await waitFor(
        '/healthz to pass again',
        async () => (await get(manager.healthProbeAddress, '/healthz')).status === 200,
        { timeoutMs: 45_000, intervalMs: 200 },
      );
      // /healthz passes once a watch is accepted; its state turns to watching with its first
      // event (a streaming list's, after the apiserver's cache has caught up).
      await waitFor('the watch again', () => state('watching'), { timeoutMs: 10_000 });
    } finally {
      stop.abort();
      await running;
    }
  }, 120_000);
});
