// Interop with client-go: a TypeScript LeaderElector and client-go's tools/leaderelection
// (tooling/go-interop/leaderelection, built once in the set-up: `pnpm setup:go`) compete for the same Lease on a real
// apiserver. Each must respect the other's lease, see the other as leader, and take over after
// a release (at once) or a crash (after the lease duration, not before).

import { type ChildProcess, spawn } from 'node:child_process';
import { createClient, type Wire } from '@ctrlkit/client';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { goProgram } from '@ctrlkit/go-programs';
import type { V1Lease } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LeaderElector } from './leader-elector.js';
import { LeaseLock } from './lease-lock.js';

// The same short timings on both sides: lease 2 s, renew deadline 1.5 s, retry 0.3 s.
const timings = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 300 };
const LEASE = 'election';
const LEASES = 'coordination.k8s.io/v1/leases';
let binary = '';
const logs: string[] = [];
const goProcesses = new Set<GoCandidate>();
const tsCandidates = new Set<TsCandidate>();

interface GoEvent {
  event: 'started' | 'stopped' | 'new-leader';
  identity?: string;
  at: number;
}

interface GoCandidate {
  child: ChildProcess;
  events: GoEvent[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  has(event: GoEvent['event'], identity?: string): GoEvent | undefined;
}

type TsCandidate = ReturnType<typeof startTs>;

/** Runs the client-go program as `identity` on the test Lease; its JSON lines become `events`. */
function startGo(namespace: string, identity: string, releaseOnCancel: boolean): GoCandidate {
  const child = spawn(
    binary,
    [
      `-kubeconfig=${testKubeconfigPath()}`,
      `-namespace=${namespace}`,
      `-name=${LEASE}`,
      `-identity=${identity}`,
      `-lease-duration=${timings.leaseDurationMs}ms`,
      `-renew-deadline=${timings.renewDeadlineMs}ms`,
      `-retry-period=${timings.retryPeriodMs}ms`,
      `-release-on-cancel=${releaseOnCancel}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const events: GoEvent[] = [];
  const stderr: string[] = [];
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) {
      events.push({ ...(JSON.parse(line) as Omit<GoEvent, 'at'>), at: performance.now() });
      logs.push(`go ${identity}: ${line}`);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const candidate: GoCandidate = {
    child,
    events,
    stderr,
    exited,
    has: (event, id) =>
      events.find((e) => e.event === event && (id === undefined || e.identity === id)),
  };
  goProcesses.add(candidate);
  return candidate;
}

/** A TypeScript candidate on the test Lease. */
function startTs(namespace: string, identity: string) {
  const lock = new LeaseLock({ kubeConfig: testKubeConfig(), namespace, name: LEASE, identity });
  const controller = new AbortController();
  let startedAt: number | undefined;
  const leaders: string[] = [];
  const elector = new LeaderElector({
    lock,
    ...timings,
    releaseOnCancel: true,
    logger: {
      debug: () => {},
      info: () => {},
      warn: (_context, message) => logs.push(`ts ${identity} warn ${message}`),
      error: (context, message) =>
        logs.push(
          `ts ${identity} error ${message} ${String((context as { error?: unknown }).error ?? '')}`,
        ),
    },
    callbacks: {
      onStartedLeading: () => {
        startedAt = performance.now();
      },
      onStoppedLeading: () => {},
      onNewLeader: (id) => leaders.push(id),
    },
  });
  const done = elector.run(controller.signal);
  const candidate = { elector, controller, done, leaders, startedAt: () => startedAt };
  tsCandidates.add(candidate);
  return candidate;
}

/** Core's `waitFor`, with the electors' last log lines and the Go processes' stderr in a timeout's message. */
async function waitLogged(
  what: string,
  condition: () => boolean,
  timeoutMs: number,
): Promise<void> {
  await waitFor(what, condition, { timeoutMs }).catch((error: unknown) => {
    const stderr = [...goProcesses]
      .flatMap((g) => g.stderr)
      .join('')
      .split('\n')
      .slice(-10);
    throw new Error(
      `${errorMessage(error)}; logs:\n${logs.slice(-20).join('\n')}\ngo stderr:\n${stderr.join('\n')}`,
      { cause: error },
    );
  });
}

/** Waits for a child to exit, bounded; SIGKILLs it if it does not. */
async function exitOf(go: GoCandidate, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const result = await Promise.race([go.exited, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    go.child.kill('SIGKILL');
    throw new Error(`the Go candidate did not exit within ${timeoutMs} ms`);
  }
  goProcesses.delete(go);
  return result;
}

async function readLease(namespace: string): Promise<Wire<V1Lease>> {
  const client = createClient(testKubeConfig());
  try {
    return await client.get<V1Lease>(LEASES, LEASE, { namespace });
  } finally {
    client.close();
  }
}

/** A MicroTime as the apiserver returns it: six fractional digits, parsable. */
function microTime(value: unknown): number {
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (!(value instanceof Date)) expect(text).toMatch(/\.\d{6}Z$/);
  const ms = Date.parse(text);
  expect(Number.isNaN(ms)).toBe(false);
  return ms;
}

beforeAll(() => {
  // Built by the set-up, never here; a clear error naming `pnpm setup:go` when it is missing.
  binary = goProgram('leaderelection');
});

afterEach(async () => {
  for (const ts of tsCandidates) ts.controller.abort();
  await Promise.race([
    Promise.allSettled([...tsCandidates].map((ts) => ts.done)),
    new Promise((resolve) => setTimeout(resolve, 5_000)),
  ]);
  tsCandidates.clear();
  for (const go of goProcesses) {
    if (go.child.exitCode === null && go.child.signalCode === null) go.child.kill('SIGKILL');
    await go.exited;
  }
  goProcesses.clear();
  logs.length = 0;
});

afterAll(async () => {
  for (const go of goProcesses) go.child.kill('SIGKILL');
});

describe('leader election interop with client-go on one Lease', () => {
  it('client-go leads, TS waits and names it; client-go releases on SIGTERM and TS takes over at once', async () => {
    const namespace = await createTestNamespace(testKubeConfig(), 'le-interop-');
    const go = startGo(namespace, 'go-a', true);
    await waitLogged('client-go started leading', () => go.has('started') !== undefined, 15_000);
    expect(go.has('new-leader', 'go-a')).toBeDefined();

    const ts = startTs(namespace, 'ts-b');
    await waitLogged(
      'TS observed client-go as leader',
      () => ts.elector.getLeader() === 'go-a',
      5_000,
    );
    await waitLogged(
      'TS reported client-go as new leader',
      () => ts.leaders.includes('go-a'),
      1_000,
    );
    expect(ts.elector.isLeader()).toBe(false);

    const lease = await readLease(namespace);
    expect(lease.spec).toMatchObject({
      holderIdentity: 'go-a',
      leaseDurationSeconds: 2,
      leaseTransitions: 0,
    });
    microTime(lease.spec?.renewTime);
    microTime(lease.spec?.acquireTime);
    // TS keeps respecting client-go's renewed lease for longer than a lease duration.
    await new Promise((resolve) => setTimeout(resolve, timings.leaseDurationMs + 500));
    expect(ts.elector.isLeader()).toBe(false);
    expect(ts.elector.getLeader()).toBe('go-a');

    const stoppedAt = performance.now();
    go.child.kill('SIGTERM');
    expect(await exitOf(go, 10_000)).toEqual({ code: 0, signal: null });
    expect(go.has('stopped')).toBeDefined();
    await waitLogged('TS took over', () => ts.elector.isLeader(), timings.leaseDurationMs + 3_000);
    // Released: TS took over on a retry, well before a lease duration would have run out.
    expect(ts.startedAt()! - stoppedAt).toBeLessThan(timings.leaseDurationMs);
    const after = await readLease(namespace);
    expect(after.spec).toMatchObject({
      holderIdentity: 'ts-b',
      leaseDurationSeconds: 2,
      leaseTransitions: 1,
    });
    expect(ts.leaders.at(-1)).toBe('ts-b');
    ts.controller.abort();
    await ts.done;
  });

  it('TS leads, client-go waits and names it; TS releases on abort and client-go takes over at once', async () => {
    const namespace = await createTestNamespace(testKubeConfig(), 'le-interop-');
    const ts = startTs(namespace, 'ts-a');
    await waitLogged('TS started leading', () => ts.elector.isLeader(), 5_000);

    const go = startGo(namespace, 'go-b', true);
    await waitLogged(
      'client-go reported TS as leader',
      () => go.has('new-leader', 'ts-a') !== undefined,
      15_000,
    );
    // client-go keeps respecting the TS lease for longer than a lease duration.
    await new Promise((resolve) => setTimeout(resolve, timings.leaseDurationMs + 500));
    expect(go.has('started')).toBeUndefined();
    expect(ts.elector.isLeader()).toBe(true);
    const lease = await readLease(namespace);
    expect(lease.spec).toMatchObject({
      holderIdentity: 'ts-a',
      leaseDurationSeconds: 2,
      leaseTransitions: 0,
    });
    microTime(lease.spec?.renewTime);

    const stoppedAt = performance.now();
    ts.controller.abort();
    await ts.done;
    await waitLogged(
      'client-go took over',
      () => go.has('started') !== undefined,
      timings.leaseDurationMs + 3_000,
    );
    expect(go.has('started')!.at - stoppedAt).toBeLessThan(timings.leaseDurationMs);
    expect(go.has('new-leader', 'go-b')).toBeDefined();
    const after = await readLease(namespace);
    expect(after.spec).toMatchObject({
      holderIdentity: 'go-b',
      leaseDurationSeconds: 2,
      leaseTransitions: 1,
    });

    go.child.kill('SIGTERM');
    expect(await exitOf(go, 10_000)).toEqual({ code: 0, signal: null });
    expect(go.events.at(-1)?.event).toBe('stopped');
    const released = await readLease(namespace);
    expect(released.spec?.holderIdentity ?? '').toBe('');
  });

  it('TS takes over from a crashed client-go leader (SIGKILL, no release) only after the lease duration', async () => {
    const namespace = await createTestNamespace(testKubeConfig(), 'le-interop-');
    const go = startGo(namespace, 'go-a', false);
    await waitLogged('client-go started leading', () => go.has('started') !== undefined, 15_000);
    const ts = startTs(namespace, 'ts-b');
    await waitLogged(
      'TS observed client-go as leader',
      () => ts.elector.getLeader() === 'go-a',
      5_000,
    );

    const crashedAt = performance.now();
    go.child.kill('SIGKILL');
    expect(await exitOf(go, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
    // The Lease as the crashed leader left it (at the latest its last renewal).
    const left = await readLease(namespace);
    expect(left.spec).toMatchObject({ holderIdentity: 'go-a', leaseTransitions: 0 });
    const lastRenew = microTime(left.spec?.renewTime);

    await waitLogged('TS took over', () => ts.elector.isLeader(), timings.leaseDurationMs + 4_000);
    const tookOverAfter = ts.startedAt()! - crashedAt;
    // TS saw client-go's last renewal at most about one retry before the crash, and waited a
    // full lease duration from then.
    expect(tookOverAfter).toBeGreaterThanOrEqual(
      timings.leaseDurationMs - timings.retryPeriodMs * 2.2 - 100,
    );
    const after = await readLease(namespace);
    expect(after.spec).toMatchObject({
      holderIdentity: 'ts-b',
      leaseDurationSeconds: 2,
      leaseTransitions: 1,
    });
    // By the Lease's own times (one machine, one clock): TS acquired no earlier than a lease
    // duration after client-go's last renewal.
    expect(microTime(after.spec?.acquireTime) - lastRenew).toBeGreaterThanOrEqual(
      timings.leaseDurationMs - 50,
    );
    expect(ts.leaders).toEqual(['go-a', 'ts-b']);
    ts.controller.abort();
    await ts.done;
  });
});
