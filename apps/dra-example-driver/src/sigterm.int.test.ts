// The built binary, as deploy/'s ServiceAccount, against the test apiserver: it publishes the
// node's GPUs, and on SIGTERM it stops gracefully (exit code 0) leaving the ResourceSlices in
// place, as upstream; restarted with other devices, it rewrites them.

import { appPackage, startApp } from '@ctrlkit/app-testing';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const app = appPackage('@ctrlkit/dra-example-driver', import.meta.url);

it('publishes GPUs and leaves the slices in place on SIGTERM', async () => {
  const kubeConfig = testKubeConfig();
  const nodeName = `sigterm-${Math.random().toString(36).slice(2, 6)}`;
  const api = createClient(kubeConfig);
  await api.create('nodes', { metadata: { name: nodeName } });
  const driver = await startApp(app, {
    args: [
      `--node-name=${nodeName}`,
      '--num-devices=4',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
  });
  const list = async () =>
    (
      await api.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
        fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
      })
    ).items;
  let code: unknown;
  try {
    await waitFor('a slice published', list, {
      until: (slices) => slices.length > 0,
      timeoutMs: 60_000,
    }).catch((error: unknown) => {
      throw new Error(`${errorMessage(error)}; logs:\n${driver.logs.join('\n')}`, {
        cause: error,
      });
    });
    const [slice] = await list();
    expect(slice?.spec.devices?.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
    expect(slice?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Node',
      name: nodeName,
      controller: true,
    });
    driver.child.kill('SIGTERM');
    code = await driver.exited;
    expect((await list()).map((s) => s.metadata?.name)).toEqual([slice?.metadata?.name]);
  } finally {
    await driver.stop();
  }
  expect(code).toBe(0);
  const lines = driver.logs.map((l) => JSON.parse(l) as { msg: string });
  expect(lines.map((l) => l.msg)).toContain('stopped; ResourceSlices left in place');
}, 120_000);

it('a restart with other partitions rewrites the pool: the counters slice updated, the devices slice replaced', async () => {
  const kubeConfig = testKubeConfig();
  const nodeName = `restart-${Math.random().toString(36).slice(2, 6)}`;
  const api = createClient(kubeConfig);
  await api.create('nodes', { metadata: { name: nodeName } });
  const slices = async () =>
    (
      await api.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
        fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
      })
    ).items;
  const devicesOf = (s: Awaited<ReturnType<typeof slices>>) =>
    s.flatMap((slice) => slice.spec.devices ?? []).map((d) => d.name);
  const run = async (partitions: number) => {
    const driver = await startApp(app, {
      args: [
        `--node-name=${nodeName}`,
        '--num-devices=1',
        `--partitions=${partitions}`,
        '--metrics-bind-address=0',
        '--health-probe-bind-address=0',
      ],
    });
    try {
      return await waitFor(`the slices of ${partitions} partitions`, slices, {
        until: (s) => s.length === 2 && devicesOf(s).length === partitions + 1,
        timeoutMs: 60_000,
      });
    } finally {
      expect(await driver.stop()).toBe(0);
    }
  };
  const counters = (s: Awaited<ReturnType<typeof slices>>) => s.find((x) => x.spec.sharedCounters);
  const withDevices = (s: Awaited<ReturnType<typeof slices>>) => s.find((x) => x.spec.devices);
  const before = await run(2);
  const after = await run(3);
  expect(devicesOf(after).sort()).toEqual([
    'gpu-0-full',
    'gpu-0-partition-0',
    'gpu-0-partition-1',
    'gpu-0-partition-2',
  ]);
  // Paired by device names (dynamic-resource-allocation v0.35): the counters slice (no devices)
  // is kept and updated to the bumped pool generation; the devices slice, whose names
  // changed, is deleted and created anew.
  expect(counters(after)?.metadata?.uid).toBe(counters(before)?.metadata?.uid);
  expect(withDevices(after)?.metadata?.uid).not.toBe(withDevices(before)?.metadata?.uid);
  expect(counters(after)?.spec.pool.generation).toBe(
    (counters(before)?.spec.pool.generation ?? 0) + 1,
  );
});
