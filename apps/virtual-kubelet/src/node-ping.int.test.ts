// --node-ping-timeout on a real control plane: the provider's ping is the node's heartbeat, so
// a hung ping is bounded by the timeout (the first one failing stops the program with exit 1,
// as upstream's node controller returns the error), and the process provider's ping, which
// starts a child process, keeps a node alive.
import { appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);

/** The flags every app of this file runs with: no endpoints, a free kubelet port. */
async function baseArgs(nodeName: string): Promise<string[]> {
  return [
    `--nodename=${nodeName}`,
    '--metrics-addr=0',
    '--healthz-addr=0',
    '--internal-ip=10.9.8.7',
    `--listen-port=${await freePort()}`,
  ];
}

it('a hung provider ping is bounded by --node-ping-timeout: the node is not registered, exit 1', async () => {
  const started = performance.now();
  const vk = await startApp(app, {
    args: [
      ...(await baseArgs('vk-hung-ping')),
      '--mock-ping-latency=1h',
      '--node-ping-timeout=500ms',
    ],
  });
  const code = await Promise.race([
    vk.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000)),
  ]);
  if (code === 'still running') await vk.stop();
  expect(code).toBe(1);
  expect(performance.now() - started).toBeLessThan(30_000);
  expect(vk.logs.join('\n')).toContain('node ping timed out after 500 ms');
  const client = createClient(testKubeConfig());
  await expect(client.get('nodes', 'vk-hung-ping')).rejects.toMatchObject({ statusCode: 404 });
});

it("the process provider's ping (a child process) keeps its node Ready within --node-ping-timeout", async () => {
  const nodeName = 'vk-process-ping';
  const vk = await startApp(app, {
    args: [
      ...(await baseArgs(nodeName)),
      '--provider=process',
      '--node-ping-interval=1s',
      '--node-ping-timeout=5s',
      '--no-enable-node-lease',
    ],
  });
  const client = createClient(testKubeConfig());
  try {
    const heartbeats = new Set<string>();
    await waitFor(
      'three heartbeats of the node',
      async () => {
        const node = (await client.get<V1Node>('nodes', nodeName).catch(() => undefined)) as
          | V1Node
          | undefined;
        const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
        if (ready?.status === 'True' && ready.lastHeartbeatTime !== undefined) {
          heartbeats.add(String(ready.lastHeartbeatTime));
        }
        return heartbeats.size >= 3;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  } finally {
    expect(await vk.stop()).toBe(0);
    await client.delete('nodes', nodeName);
  }
});
