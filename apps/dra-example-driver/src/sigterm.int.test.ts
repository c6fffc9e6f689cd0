// The built binary against the test apiserver: it publishes the node's GPUs, and on SIGTERM
// it stops gracefully (exit code 0) leaving the ResourceSlices in place, as upstream.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { CoreV1Api, ResourceV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const main = join(import.meta.dirname, '..', 'dist', 'main.js');

it('publishes GPUs and leaves the slices in place on SIGTERM', async () => {
  const kubeConfig = testKubeConfig();
  const nodeName = `sigterm-${Math.random().toString(36).slice(2, 6)}`;
  await kubeConfig.makeApiClient(CoreV1Api).createNode({ body: { metadata: { name: nodeName } } });
  const child = spawn(
    process.execPath,
    [
      main,
      `--kubeconfig=${testKubeconfigPath()}`,
      `--node-name=${nodeName}`,
      '--num-devices=4',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logs: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const api = kubeConfig.makeApiClient(ResourceV1Api);
  const list = async () =>
    (
      await api.listResourceSlice({
        fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
      })
    ).items;
  const [slice] = await waitFor('a slice published', list, {
    until: (slices) => slices.length > 0,
    timeoutMs: 60_000,
  }).catch((error: unknown) => {
    throw new Error(`${errorMessage(error)}; logs:\n${logs.join('')}`, { cause: error });
  });
  expect(slice?.spec.devices?.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
  expect(slice?.metadata?.ownerReferences?.[0]).toMatchObject({
    kind: 'Node',
    name: nodeName,
    controller: true,
  });
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect((await list()).map((s) => s.metadata?.name)).toEqual([slice?.metadata?.name]);
  const lines = logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string });
  expect(lines.map((l) => l.msg)).toContain('stopped; ResourceSlices left in place');
}, 120_000);
