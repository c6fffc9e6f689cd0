// The README example against the test control plane (kubeConfig from envtest instead of
// loadFromDefault, a Node created first, console.log captured).

import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { startController } from './controller.js';

it('runs the README example', async () => {
  const kubeConfig = testKubeConfig();
  const nodeName = `readme-${Math.random().toString(36).slice(2, 6)}`;
  const admin = createClient(kubeConfig);
  await admin.create('nodes', { metadata: { name: nodeName } });
  const printed: unknown[] = [];
  const console = { log: (value: unknown) => printed.push(value) };

  const client = createClient(kubeConfig);
  const controller = await startController({
    driverName: 'gpu.example.com',
    kubeClient: client,
    owner: { apiVersion: 'v1', kind: 'Node', name: nodeName },
    resources: {
      pools: {
        [nodeName]: {
          slices: [{ devices: [{ name: 'gpu-0', capacity: { memory: { value: '80Gi' } } }] }],
        },
      },
    },
  });
  await waitFor('the slice created', () => controller.getStats().numCreates === 1, {
    timeoutMs: 20_000,
  });
  controller.update({
    pools: { [nodeName]: { slices: [{ devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }] }] } },
  });
  await waitFor('the slice updated', () => controller.getStats().numUpdates === 1, {
    timeoutMs: 20_000,
  });
  console.log(controller.getStats());
  await controller.stop();

  expect(printed).toEqual([{ numCreates: 1, numUpdates: 1, numDeletes: 0 }]);
  const slices = await admin.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
    fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
  });
  admin.close();
  expect(slices.items.map((s) => s.spec.devices?.map((d) => d.name))).toEqual([['gpu-0', 'gpu-1']]);
  expect(slices.items[0]?.metadata?.ownerReferences?.[0]?.name).toBe(nodeName);
});
