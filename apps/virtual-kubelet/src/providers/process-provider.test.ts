import { isNotFound, noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { isInvalidInput } from '@ctrlkit/node-controller';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startKubeletApiServer } from '../kubelet-api/kubelet-api-server.js';
import { selfSignedCert } from '../kubelet-api/self-signed-cert.js';
import { NODE_ENV_MARKER, ProcessProvider } from './process-provider.js';

const signal = new AbortController().signal;

function pod(
  name: string,
  command: string[],
  restartPolicy: string,
  env: Array<{ name: string; value: string }> = [],
): Wire<V1Pod> {
  return {
    metadata: { name, namespace: 'ns', uid: name },
    spec: { restartPolicy, containers: [{ name: 'main', image: 'none', command, env }] },
  };
}

/** Waits (5 s at most) until the provider reports pod `name` in a state `check` accepts. */
async function until(
  provider: ProcessProvider,
  name: string,
  check: (p: Wire<V1Pod>) => boolean,
): Promise<Wire<V1Pod>> {
  const found = await waitFor(
    `pod ${name} in the expected state`,
    () => provider.getPod(signal, 'ns', name),
    {
      until: (p) => p !== undefined && check(p),
      timeoutMs: 5_000,
    },
  );
  return found!;
}

describe('ProcessProvider', () => {
  it('runs the command with the resolved env, keeps its output, and reports exit 0 as Completed / Succeeded (Never)', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    await provider.createPod(
      signal,
      pod('ok', ['sh', '-c', 'echo hello $WHO'], 'Never', [{ name: 'WHO', value: 'world' }]),
    );
    const done = await until(provider, 'ok', (p) => p.status?.phase === 'Succeeded');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    expect(provider.getContainerLogs('ns', 'ok', 'main')).toBe('hello world\n');
    expect(done.status?.podIP).toBe('10.0.0.5');
  });

  it('a non-zero exit is Error / Failed under Never', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    await provider.createPod(signal, pod('bad', ['sh', '-c', 'exit 3'], 'Never'));
    const done = await until(provider, 'bad', (p) => p.status?.phase === 'Failed');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('OnFailure restarts a failing container with back-off and counts restarts', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    await provider.createPod(signal, pod('crash', ['sh', '-c', 'exit 1'], 'OnFailure'));
    const restarted = await until(
      provider,
      'crash',
      (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
    );
    expect(restarted.status?.phase).toBe('Running');
    expect(restarted.status?.containerStatuses?.[0]?.lastState?.terminated?.exitCode).toBe(1);
    await provider.deletePod(signal, {
      ...restarted,
      metadata: { ...restarted.metadata, deletionGracePeriodSeconds: 1 },
    });
  });

  it('a running container is stopped on delete (SIGTERM), and the provider then forgets the pod', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    const seen: Wire<V1Pod>[] = [];
    provider.notifyPods(signal, (p) => seen.push(p));
    await provider.createPod(signal, pod('long', ['sleep', '30'], 'Always'));
    const running = await until(provider, 'long', (p) => p.status?.phase === 'Running');
    expect(running.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
    await provider.deletePod(signal, running);
    expect(seen.at(-1)?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(143);
    await expect(provider.getPod(signal, 'ns', 'long')).rejects.toSatisfy(isNotFound);
  });

  it('a container without a command is InvalidInput', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    const noCommand: Wire<V1Pod> = {
      metadata: { name: 'x', namespace: 'ns' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    await expect(provider.createPod(signal, noCommand)).rejects.toSatisfy(isInvalidInput);
  });

  it("serves a container's output on the kubelet API /containerLogs/ns/pod/container", async () => {
    const provider = new ProcessProvider({ internalIP: '127.0.0.1' });
    await provider.createPod(
      signal,
      pod('talk', ['sh', '-c', 'echo line1; echo line2 >&2'], 'Never'),
    );
    await until(provider, 'talk', (p) => p.status?.phase === 'Succeeded');
    const { server, port } = await startKubeletApiServer({
      nodeName: 'n',
      provider,
      cert: await selfSignedCert('n', ['127.0.0.1']),
      host: '127.0.0.1',
      port: 0,
      logger: noopLogger,
    });
    try {
      const { request } = await import('node:https');
      const body = await new Promise<string>((resolve, reject) => {
        request(
          {
            host: '127.0.0.1',
            port,
            path: '/containerLogs/ns/talk/main',
            rejectUnauthorized: false,
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => {
              text += c.toString();
            });
            res.on('end', () => resolve(text));
          },
        )
          .on('error', reject)
          .end();
      });
      expect(body.split('\n').filter(Boolean).sort()).toEqual(['line1', 'line2']);
    } finally {
      server.close();
    }
  });
});

describe.runIf(process.platform === 'linux')('ProcessProvider.killLeftovers', () => {
  it('kills the container processes an earlier run of the same node left, and no others', async () => {
    const { spawn } = await import('node:child_process');
    const node = `leftover-${process.pid}`;
    const orphan = (marker: string) =>
      spawn('sleep', ['600'], { env: { PATH: process.env.PATH, [NODE_ENV_MARKER]: marker } });
    const mine = orphan(node);
    const other = orphan(`${node}-other`);
    const exited = (child: ReturnType<typeof orphan>) =>
      new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await Promise.all([mine, other].map((c) => new Promise((r) => c.once('spawn', r))));
    try {
      const provider = new ProcessProvider({ internalIP: '10.0.0.5', nodeName: node });
      expect(provider.killLeftovers()).toBe(1);
      expect(await exited(mine)).toBe('SIGKILL');
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
      // Its own containers carry the marker, so a later sweep would find them: refused.
      await provider.createPod(signal, pod('own', ['sleep', '600'], 'Never'));
      await until(provider, 'own', (p) => p.status?.phase === 'Running');
      expect(() => provider.killLeftovers()).toThrow('before the first pod');
      await provider.deletePod(signal, {
        ...pod('own', [], 'Never'),
        spec: { containers: [], terminationGracePeriodSeconds: 0 },
      });
    } finally {
      mine.kill('SIGKILL');
      other.kill('SIGKILL');
    }
  });

  it('finds nothing without a node name', () => {
    expect(new ProcessProvider({ internalIP: '10.0.0.5' }).killLeftovers()).toBe(0);
  });
});
