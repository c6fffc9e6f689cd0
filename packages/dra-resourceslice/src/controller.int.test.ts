// Behaviour beyond the upstream table, against a real kube-apiserver: restarts, reordering,
// 10 000 devices, a conflict on update, a slice deleted behind the controller's back, and
// perDeviceNodeSelection as the real apiserver validates it.

import { realClock } from '@ctrlkit/core';
import { FakeClock, waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type Client, createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1Device, V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countingClient, trackingQueue } from '../test/test-harness.js';
import { type Controller, startController } from './controller.js';
import type { DriverResources } from './driver-resources.js';
import { newKubeClient } from './kube-client.js';

let kubeConfig: KubeConfig;
let resourceApi: Client;
const RESOURCE_SLICES = 'resource.k8s.io/v1/resourceslices';
let counter = 0;
const running: Controller[] = [];

beforeAll(() => {
  kubeConfig = testKubeConfig();
  resourceApi = createClient(kubeConfig);
});
afterAll(() => resourceApi.close());
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

async function listSlices(driver: string): Promise<V1ResourceSlice[]> {
  const list = await resourceApi.list<V1ResourceSlice>(RESOURCE_SLICES, {
    fieldSelector: `spec.driver=${driver}`,
  });
  return JSON.parse(JSON.stringify(list.items)) as V1ResourceSlice[];
}

const gpus = (n: number, prefix = 'gpu'): V1Device[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix}-${i}`,
    attributes: { index: { int: i } as never, model: { string: 'LATEST-GPU-MODEL' } },
    capacity: { memory: { value: '80Gi' } },
  }));

function nextDriver(): string {
  counter++;
  return `behaviour-${counter}.example.com`;
}

async function start(
  driver: string,
  resources: DriverResources,
  extra: {
    clock?: FakeClock | typeof realClock;
    syncDelayMs?: number;
    mutationCacheTTLMs?: number;
    fault?: Parameters<typeof countingClient>[1];
  } = {},
) {
  const clock = extra.clock ?? new FakeClock();
  const queue = trackingQueue(clock);
  const client = countingClient(newKubeClient(kubeConfig), extra.fault);
  const errors: string[] = [];
  const controller = await startController({
    driverName: driver,
    kubeClient: client,
    owner: { apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: 'node-a-uid' },
    resources,
    queue,
    clock,
    syncDelayMs: extra.syncDelayMs,
    mutationCacheTTLMs: extra.mutationCacheTTLMs,
    errorHandler: (error, message) => errors.push(`${message}: ${error.message}`),
  });
  running.push(controller);
  return { controller, client, queue, errors };
}

describe('ResourceSlice controller against kube-apiserver', () => {
  it('a driver restart with unchanged devices makes no write', async () => {
    const driver = nextDriver();
    const resources = { pools: { 'node-a': { slices: [{ devices: gpus(8) }] } } };
    const first = await start(driver, resources);
    await waitFor(
      'the first controller to create the slice',
      () => first.queue.idle() && first.controller.getStats().numCreates === 1,
      { timeoutMs: 20_000 },
    );
    await first.controller.stop();
    const second = await start(driver, resources);
    await waitFor(
      'the second controller to sync the pool',
      () => second.queue.idle() && second.queue.processed >= 1,
      { timeoutMs: 20_000 },
    );
    expect(second.client.calls).toEqual({ create: 0, update: 0, delete: 0, readNode: 0 });
    expect(await listSlices(driver)).toHaveLength(1);
  });

  it('reordered devices make exactly one update', async () => {
    const driver = nextDriver();
    const { controller, queue, client } = await start(driver, {
      pools: { 'node-a': { slices: [{ devices: gpus(8) }] } },
    });
    await waitFor(
      'the slice created',
      () => queue.idle() && controller.getStats().numCreates === 1,
      { timeoutMs: 20_000 },
    );
    const processed = queue.processed;
    controller.update({ pools: { 'node-a': { slices: [{ devices: gpus(8).reverse() }] } } });
    await waitFor(
      'the reordered devices synced',
      () => queue.idle() && queue.processed > processed,
      { timeoutMs: 20_000 },
    );
    expect(controller.getStats()).toEqual({ numCreates: 1, numUpdates: 1, numDeletes: 0 });
    expect(client.calls.update).toBe(1);
    const [slice] = await listSlices(driver);
    expect(slice?.spec?.devices?.map((d) => d.name)).toEqual(
      gpus(8)
        .reverse()
        .map((d) => d.name),
    );
    expect(slice?.spec?.pool?.generation).toBe(1);
  });

  it('10 000 devices across 100 pools converge, and a second sync makes no call', async () => {
    const driver = nextDriver();
    const pools: DriverResources['pools'] = {};
    for (let p = 0; p < 100; p++) pools[`pool-${p}`] = { slices: [{ devices: gpus(100) }] };
    const { controller, queue, client } = await start(driver, { pools });
    await waitFor(
      '100 slices created',
      () => queue.idle() && controller.getStats().numCreates === 100,
      { timeoutMs: 120_000 },
    );
    const slices = await listSlices(driver);
    expect(slices).toHaveLength(100);
    expect(slices.reduce((n, s) => n + (s.spec?.devices?.length ?? 0), 0)).toBe(10_000);
    const calls = { ...client.calls };
    const processed = queue.processed;
    for (const pool of Object.keys(pools)) queue.add(pool);
    await waitFor(
      'a second sync of the 100 pools',
      () => queue.idle() && queue.processed >= processed + 100,
      { timeoutMs: 60_000 },
    );
    expect(client.calls).toEqual(calls);
  });

  it('a 409 conflict on update is reported and retried until the update lands', async () => {
    const driver = nextDriver();
    let conflicted = false;
    const { controller, errors } = await start(
      driver,
      { pools: { 'node-a': { slices: [{ devices: gpus(2) }] } } },
      {
        clock: realClock,
        syncDelayMs: 600_000,
        fault: async (call) => {
          if (call !== 'update' || conflicted) return;
          // Someone else changes the slice just before the controller's PUT, which still
          // carries the old resourceVersion: the apiserver answers 409.
          conflicted = true;
          const [current] = await listSlices(driver);
          await resourceApi.replace(RESOURCE_SLICES, {
            ...(current as V1ResourceSlice),
            metadata: { ...current?.metadata, labels: { touched: 'yes' } },
          });
        },
      },
    );
    await waitFor('the slice created', () => controller.getStats().numCreates === 1, {
      timeoutMs: 20_000,
    });
    controller.update({ pools: { 'node-a': { slices: [{ devices: gpus(3) }] } } });
    await waitFor('the slice updated', () => controller.getStats().numUpdates === 1, {
      timeoutMs: 20_000,
    });
    expect(errors[0]).toMatch(
      /^processing ResourceSlice objects: update resource slice: Operation cannot be fulfilled on resourceslices.resource.k8s.io ".*": the object has been modified/,
    );
    const [slice] = await listSlices(driver);
    expect(slice?.spec?.devices?.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1', 'gpu-2']);
    expect(slice?.metadata?.labels).toEqual({ touched: 'yes' });
    expect(controller.getStats()).toEqual({ numCreates: 1, numUpdates: 1, numDeletes: 0 });
  });

  it('a slice deleted behind the controller is recreated within the sync delay', async () => {
    const driver = nextDriver();
    const syncDelayMs = 1_000;
    const mutationCacheTTLMs = 200;
    const { controller } = await start(
      driver,
      { pools: { 'node-a': { slices: [{ devices: gpus(2) }] } } },
      {
        clock: realClock,
        syncDelayMs,
        mutationCacheTTLMs,
      },
    );
    await waitFor('the slice created', () => controller.getStats().numCreates === 1, {
      timeoutMs: 20_000,
    });
    const [slice] = await listSlices(driver);
    // Past the mutation cache TTL of the create, as upstream assumes for a quick recreate.
    await new Promise((resolve) => setTimeout(resolve, mutationCacheTTLMs + 50));
    const deletedAt = Date.now();
    await resourceApi.delete(RESOURCE_SLICES, slice?.metadata?.name ?? '');
    await waitFor('the slice recreated', () => controller.getStats().numCreates === 2, {
      timeoutMs: 10_000,
    });
    const took = Date.now() - deletedAt;
    expect(took).toBeLessThan(syncDelayMs + 2_000);
    const slices = await listSlices(driver);
    expect(slices).toHaveLength(1);
    expect(slices[0]?.metadata?.name).not.toBe(slice?.metadata?.name);
  });

  it('create-partitionable-devices as upstream writes it is rejected by the real apiserver (422), reported and retried', async () => {
    const driver = nextDriver();
    const { controller, errors } = await start(driver, {
      pools: {
        'node-a': {
          generation: 1,
          slices: [
            {
              perDeviceNodeSelection: true,
              sharedCounters: [{ name: 'gpu-0', counters: { mem: { value: '1' } } }],
            },
            {
              perDeviceNodeSelection: true,
              devices: [
                {
                  name: 'device',
                  nodeName: 'node-a',
                  consumesCounters: [{ counterSet: 'gpu-0', counters: { mem: { value: '1' } } }],
                },
              ],
            },
          ],
        },
      },
    });
    await waitFor('an error reported', () => errors.length > 0, { timeoutMs: 20_000 });
    // The controller always sets nodeName (Node owner), so the slice has two of nodeName,
    // nodeSelector, allNodes, perDeviceNodeSelection: v0.35 cannot publish such slices.
    expect(errors[0]).toContain('processing ResourceSlice objects: create resource slice: ');
    expect(errors[0]).toContain(
      'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required',
    );
    expect(controller.getStats().numCreates).toBe(0);
  });

  it('an API limit is reported before any request, naming the device and field', async () => {
    const driver = nextDriver();
    const { controller, errors, client } = await start(driver, {
      pools: {
        'node-a': {
          slices: [
            { devices: [{ name: 'gpu-0', attributes: { model: { string: 'x'.repeat(65) } } }] },
          ],
        },
      },
    });
    await waitFor('an error reported', () => errors.length > 0, { timeoutMs: 20_000 });
    expect(errors[0]).toBe(
      'processing ResourceSlice objects: pool "node-a": slices[0].devices[0] (device "gpu-0").attributes["model"].string: must be at most 64 characters',
    );
    expect(client.calls.create).toBe(0);
    expect(controller.getStats().numCreates).toBe(0);
  });
});
