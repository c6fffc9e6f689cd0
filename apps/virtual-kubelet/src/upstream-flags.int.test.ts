// The upstream virtual-kubelet command line on a real control plane: --disable-taint, --os and
// --provider-config (upstream mock's format, unknown keys ignored) shape the registered Node,
// --taint*/VKUBELET_TAINT_* its taint, --full-resync-period the
// informers' resync, and --startup-timeout bounds the wait for the informers and the pod
// controller (exit 1 when they are not ready in time).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appPackage, startApp } from '@ctrlkit/app-testing';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type Client, createClient } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { parseFlags } from './flags.js';
import { buildVirtualKubelet, runVirtualKubelet, StartupTimeoutError } from './run.js';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);
const WAIT = { timeoutMs: 60_000, intervalMs: 200 };

/** A file with `text` in a fresh temporary directory. */
function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'vk-upstream-')), name);
  writeFileSync(path, text);
  return path;
}

/** The flags every app of this file runs with: no endpoints, a free kubelet port. */
async function baseArgs(nodeName: string): Promise<string[]> {
  return [
    '--nodename',
    nodeName,
    '--metrics-addr=0',
    '--healthz-addr=0',
    '--internal-ip=10.9.8.7',
    `--listen-port=${await freePort()}`,
  ];
}

/** The node's taints but those the apiserver adds itself (`node.kubernetes.io/not-ready`, …). */
const ownTaints = (node: V1Node) =>
  (node.spec?.taints ?? [])
    .filter((t) => !t.key.startsWith('node.kubernetes.io/'))
    .map(({ key, value, effect }) => ({ key, value, effect }));

async function registeredNode(client: Client, name: string): Promise<V1Node> {
  let node: V1Node | undefined;
  await waitFor(
    `node ${name} registered`,
    async () => {
      node = (await client.get<V1Node>('nodes', name).catch(() => undefined)) as V1Node | undefined;
      return node !== undefined;
    },
    WAIT,
  );
  return node as V1Node;
}

it('--disable-taint, --os and --provider-config shape the Node; durations in Go form', async () => {
  const core = createClient(testKubeConfig());
  const nodeName = 'vk-upstream-flags';
  const config = tempFile(
    'provider.yaml',
    `${nodeName}:\n  cpu: "4"\n  memory: 8Gi\n  pods: "50"\n  others:\n    nvidia.com/gpu: "2"\n` +
      `  providerID: mock://${nodeName}\n  zone: ignored\nsomeone-else:\n  cpu: "1"\n`,
  );
  const vk = await startApp(app, {
    args: [
      ...(await baseArgs(nodeName)),
      '--disable-taint',
      '--os=Windows',
      `--provider-config=${config}`,
      '--startup-timeout=30s',
      '--full-resync-period=30s',
      '--node-ping-interval=2s',
      '--node-ping-timeout=1s',
      '--node-status-update-interval=1m30s',
      '--cluster-domain=corp.example',
    ],
    // ignored with --disable-taint
    env: { VKUBELET_TAINT_KEY: 'example.com/ignored' },
  });
  try {
    const node = await registeredNode(core, nodeName);
    expect(ownTaints(node)).toEqual([]);
    expect(node.metadata?.labels).toMatchObject({
      'kubernetes.io/os': 'windows',
      'beta.kubernetes.io/os': 'windows',
    });
    expect(node.status?.nodeInfo?.operatingSystem).toBe('windows');
    const capacity = { cpu: '4', memory: '8Gi', pods: '50', 'nvidia.com/gpu': '2' };
    expect(node.status?.capacity).toMatchObject(capacity);
    expect(node.status?.allocatable).toMatchObject(capacity);
    expect(node.spec?.providerID).toBe(`mock://${nodeName}`);
    expect(vk.logs.join('\n')).toContain(
      `--provider-config: ignoring unknown keys of node \\"${nodeName}\\": zone`,
    );
  } finally {
    expect(await vk.stop()).toBe(0);
    await core.delete('nodes', nodeName);
  }
});

it('takes the taint from VKUBELET_TAINT_KEY, VKUBELET_TAINT_VALUE and VKUBELET_TAINT_EFFECT', async () => {
  const core = createClient(testKubeConfig());
  const nodeName = 'vk-upstream-taint';
  const vk = await startApp(app, {
    args: await baseArgs(nodeName),
    env: {
      VKUBELET_TAINT_KEY: 'example.com/virtual',
      VKUBELET_TAINT_VALUE: 'edge',
      VKUBELET_TAINT_EFFECT: 'NoExecute',
    },
  });
  try {
    const node = await registeredNode(core, nodeName);
    expect(ownTaints(node)).toEqual([
      { key: 'example.com/virtual', value: 'edge', effect: 'NoExecute' },
    ]);
    expect(node.metadata?.labels?.['kubernetes.io/os']).toBe('linux');
  } finally {
    expect(await vk.stop()).toBe(0);
    await core.delete('nodes', nodeName);
  }
});

it('--full-resync-period resyncs the pod informer; --startup-timeout lets a ready start through', async () => {
  const kubeConfig = testKubeConfig();
  const core = createClient(kubeConfig);
  const namespace = await createTestNamespace(kubeConfig, 'vk-resync-');
  const nodeName = 'vk-upstream-resync';
  const kubeconfig = tempFile('kubeconfig', kubeConfig.exportConfig());
  const flags = parseFlags(
    [
      ...(await baseArgs(nodeName)),
      `--kubeconfig=${kubeconfig}`,
      '--full-resync-period=1s',
      '--startup-timeout=30s',
    ],
    {},
  );
  const vk = buildVirtualKubelet(flags, noopLogger);
  const resyncs: string[] = [];
  vk.podInformer.addEventHandler({
    onUpdate: (oldPod, newPod) => {
      if (oldPod === newPod) resyncs.push(newPod.metadata?.name ?? '');
    },
  });
  await core.create(
    'pods',
    {
      metadata: { name: 'resynced' },
      spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    },
    { namespace },
  );
  const stop = new AbortController();
  const running = runVirtualKubelet(vk, flags.startupTimeoutMs, stop.signal);
  try {
    await registeredNode(core, nodeName);
    await waitFor('two resyncs of the pod', () => resyncs.length >= 2, WAIT);
    expect(new Set(resyncs)).toEqual(new Set(['resynced']));
  } finally {
    stop.abort();
    await running;
    await core.delete('nodes', nodeName);
  }
});

it('--startup-timeout: not ready in time (no apiserver) is exit 1, naming the timeout', async () => {
  const dead = await freePort();
  const kubeconfig = tempFile(
    'kubeconfig',
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${dead}` } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [bin, `--kubeconfig=${kubeconfig}`, ...(await baseArgs('vk-never')), '--startup-timeout=1s'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (exitCode) => {
      clearTimeout(kill);
      resolve(exitCode);
    });
  });
  expect(code).toBe(1);
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(output).toContain('startup timeout');
  expect(output).toContain(StartupTimeoutError.name);
});
