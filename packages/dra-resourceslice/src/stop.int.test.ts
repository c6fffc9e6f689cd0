// stop() against a real kube-apiserver: upstream's Stop cancels the context every API call of
// the sync was made with, so a write still waiting for the client's rate limit is never sent.

import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type Client, createClient } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingClient } from '../test/test-harness.js';
import { startController } from './controller.js';
import { newKubeClient } from './kube-client.js';

const RESOURCE_SLICES = 'resource.k8s.io/v1/resourceslices';
/** The throttled client's interval between requests after its one-request burst, in ms. */
const TOKEN_INTERVAL_MS = 10_000;
let api: Client;

beforeAll(() => {
  api = createClient(testKubeConfig());
});
afterAll(() => api.close());

describe('ResourceSlice controller stop()', () => {
  it('abandons the write in flight, as upstream cancels its context: the slice waiting for a rate-limit token is never created', async () => {
    const driverName = `stop-${Math.random().toString(36).slice(2, 8)}.example.com`;
    // One request at once, then one per 10 s. The informer streams its state by a WATCH,
    // which (as in client-go) waits for no token: a read here takes the burst, the create waits.
    const throttled = createClient(testKubeConfig(), {
      qps: 1_000 / TOKEN_INTERVAL_MS,
      burst: 1,
    });
    const kubeClient = countingClient(newKubeClient(throttled));
    const errors: string[] = [];
    try {
      await throttled.list(RESOURCE_SLICES, { fieldSelector: `spec.driver=${driverName}` });
      const controller = await startController({
        driverName,
        kubeClient,
        owner: { apiVersion: 'v1', kind: 'Node', name: 'node-stop', uid: 'node-stop-uid' },
        resources: { pools: { 'node-stop': { slices: [{ devices: [{ name: 'gpu-0' }] }] } } },
        errorHandler: (error, message) => errors.push(`${message}: ${error.message}`),
      });
      await expect.poll(() => kubeClient.calls.create, { timeout: 5_000 }).toBe(1);
      const stopping = Date.now();
      await controller.stop();
      // Stopped at once, not after the token came and the create was answered.
      expect(Date.now() - stopping).toBeLessThan(TOKEN_INTERVAL_MS / 2);
      const slices = await api.list<V1ResourceSlice>(RESOURCE_SLICES, {
        fieldSelector: `spec.driver=${driverName}`,
      });
      expect(slices.items).toEqual([]);
      expect(controller.getStats().numCreates).toBe(0);
      // Being stopped is not an error of the pool.
      expect(errors).toEqual([]);
    } finally {
      throttled.close();
    }
  });
});
