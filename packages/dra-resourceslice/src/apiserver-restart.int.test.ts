// Fault: the apiserver restarts while the controller publishes 100 pools. Failed calls go
// to the error handler and are retried; the informer reconnects; the cluster converges to
// exactly one slice per pool and a further sync makes no call. Creates after the tenth are
// held until the apiserver is down, so the restart lands mid-work, and the test asserts it
// failed calls.

import { realClock } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { type ControlPlane, startControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countingClient, trackingQueue } from '../test/test-harness.js';
import { startController } from './controller.js';
import type { DriverResources } from './driver-resources.js';
import { newKubeClient } from './kube-client.js';

const RESOURCE_SLICES = 'resource.k8s.io/v1/resourceslices';
let plane: ControlPlane;
beforeAll(async () => {
  plane = await startControlPlane();
}, 180_000);
afterAll(async () => {
  await plane?.stop();
});

it('converges after the apiserver restarted during a sync', async () => {
  const driver = 'restart.example.com';
  const pools: DriverResources['pools'] = {};
  for (let p = 0; p < 100; p++) {
    pools[`pool-${p}`] = {
      slices: [{ devices: Array.from({ length: 20 }, (_, i) => ({ name: `dev-${i}` })) }],
    };
  }
  const queue = trackingQueue(realClock);
  let apiserverDown: () => void = () => {};
  const down = new Promise<void>((resolve) => {
    apiserverDown = resolve;
  });
  const client = countingClient(newKubeClient(plane.kubeConfig), async (call) => {
    if (call === 'create' && client.calls.create > 10) await down;
  });
  const errors: string[] = [];
  const controller = await startController({
    driverName: driver,
    kubeClient: client,
    resources: { pools },
    queue,
    // A create whose answer was lost in the restart may leave a second slice for a pool;
    // the informer event of it brings a sync after 1 s, which deletes the redundant one.
    syncDelayMs: 1_000,
    mutationCacheTTLMs: 1_000,
    errorHandler: (error, message) => errors.push(`${message}: ${error.message}`),
  });
  try {
    await waitFor('10 slices created', () => controller.getStats().numCreates >= 10, {
      timeoutMs: 60_000,
    });
    await plane.stopApiServer();
    const createdBeforeTheRestart = controller.getStats().numCreates;
    apiserverDown();
    await waitFor('a create failed on the stopped apiserver', () => errors.length > 0, {
      timeoutMs: 60_000,
    });
    await plane.startApiServer();
    expect(createdBeforeTheRestart).toBeLessThan(100);
    expect(errors.some((e) => /create|ResourceSlice/i.test(e))).toBe(true);
    await waitFor('convergence', () => controller.getStats().numCreates >= 100 && queue.idle(), {
      timeoutMs: 120_000,
    });
    const api = createClient(plane.kubeConfig);
    const list = await api.list<V1ResourceSlice>(RESOURCE_SLICES, {
      fieldSelector: `spec.driver=${driver}`,
    });
    api.close();
    const byPool = new Map<string, number>();
    for (const slice of list.items)
      byPool.set(slice.spec.pool.name, (byPool.get(slice.spec.pool.name) ?? 0) + 1);
    expect(byPool.size).toBe(100);
    expect([...byPool.values()].every((n) => n === 1)).toBe(true);
    expect(controller.getStats().numCreates).toBe(100);
    const calls = { ...client.calls };
    const processed = queue.processed;
    for (const pool of Object.keys(pools)) queue.add(pool);
    await waitFor(
      'a second sync of the 100 pools',
      () => queue.idle() && queue.processed >= processed + 100,
      { timeoutMs: 60_000 },
    );
    expect(client.calls).toEqual(calls);
  } finally {
    await controller.stop();
  }
}, 300_000);
