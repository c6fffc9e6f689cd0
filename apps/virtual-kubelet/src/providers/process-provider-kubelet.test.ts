// The process provider as the kubelet behaves: init containers, CrashLoopBackOff timing,
// CPU and memory from the processes, and /containerLogs with its query.
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { noopLogger } from '@ctrlkit/core';
import { FakeClock, waitFor } from '@ctrlkit/core/testing';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startKubeletApiServer } from '../kubelet-api/kubelet-api-server.js';
import { selfSignedCert } from '../kubelet-api/self-signed-cert.js';
import { ProcessProvider } from './process-provider.js';

const signal = new AbortController().signal;
const sh = (script: string) => ['sh', '-c', script];

function pod(
  name: string,
  containers: Array<[string, string]>,
  restartPolicy: string,
  initContainers: Array<[string, string]> = [],
): Wire<V1Pod> {
  const spec = ([n, script]: [string, string]) => ({ name: n, image: 'none', command: sh(script) });
  return {
    metadata: { name, namespace: 'ns', uid: name },
    spec: {
      restartPolicy,
      initContainers: initContainers.map(spec),
      containers: containers.map(spec),
    },
  };
}

/** Waits (10 s at most) until the provider reports pod `name` in a state `check` accepts. */
async function until(
  provider: ProcessProvider,
  name: string,
  check: (p: Wire<V1Pod>) => boolean,
): Promise<Wire<V1Pod>> {
  const found = await waitFor(
    `pod ${name} in the expected state`,
    () => provider.getPod(signal, 'ns', name),
    { until: (p) => p !== undefined && check(p), timeoutMs: 10_000 },
  );
  return found!;
}

const stop = (provider: ProcessProvider, p: Wire<V1Pod>) =>
  provider.deletePod(signal, { ...p, metadata: { ...p.metadata, deletionGracePeriodSeconds: 1 } });

describe('ProcessProvider init containers', () => {
  it('run one after the other to completion before the app containers start', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    const dir = `/tmp/vk-init-${process.pid}-${Date.now()}`;
    await provider.createPod(
      signal,
      pod('inits', [['app', `cat ${dir}/order`]], 'Never', [
        ['first', `mkdir -p ${dir}; sleep 0.2; echo first >> ${dir}/order`],
        ['second', `echo second >> ${dir}/order`],
      ]),
    );
    const pending = await provider.getPod(signal, 'ns', 'inits');
    expect(pending?.status?.phase).toBe('Pending');
    expect(pending?.status?.conditions?.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
    });
    expect(pending?.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('PodInitializing');
    const done = await until(provider, 'inits', (p) => p.status?.phase === 'Succeeded');
    expect(provider.getContainerLogs('ns', 'inits', 'app')).toBe('first\nsecond\n');
    expect(
      done.status?.initContainerStatuses?.map((s) => [s.name, s.state?.terminated?.reason]),
    ).toEqual([
      ['first', 'Completed'],
      ['second', 'Completed'],
    ]);
    expect(done.status?.conditions?.find((c) => c.type === 'Initialized')?.status).toBe('True');
  });

  it('a failing init container fails the pod under Never; the app containers never start', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    await provider.createPod(
      signal,
      pod('badinit', [['app', 'echo started']], 'Never', [
        ['fails', 'exit 2'],
        ['after', 'true'],
      ]),
    );
    const failed = await until(provider, 'badinit', (p) => p.status?.phase === 'Failed');
    expect(failed.status?.initContainerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 2,
      reason: 'Error',
    });
    expect(failed.status?.initContainerStatuses?.[1]?.state?.waiting).toBeDefined();
    expect(failed.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('PodInitializing');
    expect(provider.getContainerLogs('ns', 'badinit', 'app')).toBe('');
  });

  it('a failing init container is restarted under OnFailure, with the pod Pending', async () => {
    const clock = new FakeClock(0);
    const provider = new ProcessProvider({ internalIP: '10.0.0.5', clock });
    await provider.createPod(
      signal,
      pod('retryinit', [['app', 'sleep 5']], 'OnFailure', [['fails', 'exit 1']]),
    );
    const backingOff = await until(
      provider,
      'retryinit',
      (p) => p.status?.initContainerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
    );
    expect(backingOff.status?.phase).toBe('Pending');
    expect(backingOff.status?.initContainerStatuses?.[0]?.restartCount).toBe(1);
    await stop(provider, backingOff);
  });
});

describe('ProcessProvider restarts with the kubelet back-off', () => {
  it('Always: at once the first time, then 10 s, then 20 s (CrashLoopBackOff)', async () => {
    const clock = new FakeClock(0);
    const provider = new ProcessProvider({ internalIP: '10.0.0.5', clock });
    await provider.createPod(signal, pod('loop', [['main', 'true']], 'Always'));
    const waiting = (p: Wire<V1Pod>) => p.status?.containerStatuses?.[0]?.state?.waiting;
    const first = await until(provider, 'loop', (p) => waiting(p)?.reason === 'CrashLoopBackOff');
    expect(first.status?.containerStatuses?.[0]?.restartCount).toBe(1); // restarted at once
    expect(waiting(first)?.message).toMatch(
      /^back-off 10s restarting failed container=main pod=loop_ns\(loop\)$/,
    );
    clock.step(9_999);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      (await provider.getPod(signal, 'ns', 'loop'))?.status?.containerStatuses?.[0]?.restartCount,
    ).toBe(1);
    clock.step(1);
    const second = await until(
      provider,
      'loop',
      (p) =>
        p.status?.containerStatuses?.[0]?.restartCount === 2 &&
        /^back-off 20s /.test(waiting(p)?.message ?? ''),
    );
    expect(waiting(second)?.reason).toBe('CrashLoopBackOff');
    await stop(provider, second);
  });
});

describe('ProcessProvider stats', () => {
  it('CPU and memory come from the processes; cumulative CPU never decreases', async () => {
    const provider = new ProcessProvider({ internalIP: '10.0.0.5' });
    await provider.createPod(signal, pod('busy', [['spin', 'while :; do :; done']], 'Always'));
    const running = await until(provider, 'busy', (p) => p.status?.phase === 'Running');
    const first = provider.getStatsSummary('n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const second = provider.getStatsSummary('n');
    const c1 = first.pods[0]?.containers[0];
    const c2 = second.pods[0]?.containers[0];
    expect(c2?.cpu.usageCoreNanoSeconds).toBeGreaterThan(c1?.cpu.usageCoreNanoSeconds ?? 0);
    expect(c2?.cpu.usageNanoCores).toBeGreaterThan(0);
    expect(c2?.memory.workingSetBytes).toBeGreaterThan(0);
    expect(second.node.cpu.usageCoreNanoSeconds).toBeGreaterThanOrEqual(
      c2?.cpu.usageCoreNanoSeconds ?? 0,
    );
    await stop(provider, running);
    expect(provider.getStatsSummary('n').node.cpu.usageCoreNanoSeconds).toBe(
      second.node.cpu.usageCoreNanoSeconds,
    );
  });
});

describe('/containerLogs query', () => {
  function get(port: number, path: string, onChunk?: (text: string) => void) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
          onChunk?.(c.toString());
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
  }

  it('tailLines, sinceSeconds, previous and follow, as the kubelet; a malformed value is 400 naming it', async () => {
    const clock = new FakeClock(0);
    const provider = new ProcessProvider({ internalIP: '127.0.0.1', clock });
    const { server, port } = await startKubeletApiServer({
      nodeName: 'n',
      provider,
      cert: await selfSignedCert('n', ['127.0.0.1']),
      host: '127.0.0.1',
      port: 0,
      logger: noopLogger,
    });
    try {
      const gate = `/tmp/vk-logs-gate-${process.pid}-${Date.now()}`;
      await provider.createPod(
        signal,
        pod(
          'talk',
          [
            [
              'main',
              `echo a; echo b; echo c; while [ ! -e ${gate} ]; do sleep 0.05; done; echo late; exit 1`,
            ],
          ],
          'OnFailure',
        ),
      );
      await until(
        provider,
        'talk',
        () => provider.getContainerLogs('ns', 'talk', 'main') === 'a\nb\nc\n',
      );
      const base = '/containerLogs/ns/talk/main';
      expect((await get(port, `${base}?tailLines=2`)).body).toBe('b\nc\n');
      clock.step(5_000);
      expect((await get(port, `${base}?sinceSeconds=3`)).body).toBe('');
      expect((await get(port, `${base}?sinceSeconds=10`)).body).toBe('a\nb\nc\n');
      expect((await get(port, `${base}?previous=true`)).status).toBe(404); // no earlier run

      // The gate opens once the follower has the kept output: it then gets what comes after.
      const followed = await get(port, `${base}?follow=true`, () => {
        if (!existsSync(gate)) writeFileSync(gate, '');
      });
      expect(followed.body).toBe('a\nb\nc\nlate\n'); // ends with the run
      await until(
        provider,
        'talk',
        (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
      );
      expect((await get(port, `${base}?previous=1`)).body).toBe('a\nb\nc\nlate\n');

      const bad = await get(port, `${base}?tailLines=-1`);
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('tailLines');
      expect((await get(port, `${base}?follow=maybe`)).body).toContain('follow');
      const p = await provider.getPod(signal, 'ns', 'talk');
      await stop(provider, p as Wire<V1Pod>);
    } finally {
      server.close();
    }
  });
});
