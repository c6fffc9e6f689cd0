import { createClient } from '@ctrlkit/client';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { CoreV1Event, V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { EventRecorder } from '../events/event-recorder.js';
import { LeaderElector } from './leader-elector.js';
import { LeaseLock } from './lease-lock.js';

// Short timings keep the test quick: lease 2 s, renew deadline 1.5 s, retry 0.3 s.
const timings = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 300 };

const logs: string[] = [];

function startCandidate(
  namespace: string,
  identity: string,
  releaseOnCancel = true,
  eventRecorder?: EventRecorder,
) {
  const kubeConfig = testKubeConfig();
  const lock = new LeaseLock({ kubeConfig, namespace, name: 'election', identity, eventRecorder });
  const controller = new AbortController();
  let startedAt: number | undefined;
  const leaders: string[] = [];
  const elector = new LeaderElector({
    lock,
    logger: {
      debug: () => {},
      info: () => {},
      warn: (context, message) =>
        logs.push(
          `${identity} warn ${message} ${String((context as { error?: unknown }).error ?? '')}`,
        ),
      error: (context, message) =>
        logs.push(
          `${identity} error ${message} ${String((context as { error?: unknown }).error ?? '')} ${JSON.stringify((context as { error?: { body?: unknown } }).error?.body ?? '')}`,
        ),
    },
    ...timings,
    releaseOnCancel,
    callbacks: {
      onStartedLeading: () => {
        startedAt = performance.now();
      },
      onStoppedLeading: () => {},
      onNewLeader: (id) => leaders.push(id),
    },
  });
  const done = elector.run(controller.signal);
  return { elector, controller, done, leaders, startedAt: () => startedAt };
}

/** Core's `waitFor`, with the electors' last warnings and errors in a timeout's message. */
async function waitLogged(
  what: string,
  condition: () => boolean,
  timeoutMs: number,
): Promise<void> {
  await waitFor(what, condition, { timeoutMs }).catch((error: unknown) => {
    throw new Error(`${errorMessage(error)}; logs:\n${logs.slice(-10).join('\n')}`, {
      cause: error,
    });
  });
}

describe('leader election on a real Lease', () => {
  it('elects one leader; when it stops (abort, with release) the other takes over at once', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'le-');
    const recorder = new EventRecorder({ kubeConfig, component: 'elector-test' });
    const a = startCandidate(namespace, 'a', true, recorder);
    await waitLogged('a leads', () => a.elector.isLeader(), 5_000);
    const b = startCandidate(namespace, 'b');
    await waitLogged('b sees a as leader', () => b.elector.getLeader() === 'a', 5_000);
    expect(b.elector.isLeader()).toBe(false);
    await recorder.shutDown();
    const client = createClient(kubeConfig);
    const readLease = () =>
      client.get<V1Lease>('coordination.k8s.io/v1/leases', 'election', { namespace });
    const events = (await client.list<CoreV1Event>('events', { namespace })).items;
    expect(events.map((e) => [e.involvedObject.kind, e.reason, e.message])).toEqual([
      ['Lease', 'LeaderElection', 'a became leader'],
    ]);

    const lease = await readLease();
    expect(lease.spec).toMatchObject({
      holderIdentity: 'a',
      leaseDurationSeconds: 2,
      leaseTransitions: 0,
    });
    // The apiserver kept microsecond precision.
    expect(String(lease.spec?.renewTime)).toMatch(/\.\d{6}Z$/);

    const stoppedAt = performance.now();
    a.controller.abort();
    await a.done;
    // a released the Lease on its way out (unless b was already quicker to take it).
    const released = await readLease();
    expect(['', 'b']).toContain(released.spec?.holderIdentity);
    await waitLogged('b took over', () => b.elector.isLeader(), timings.leaseDurationMs);
    // b took over on its next retry, within the lease duration.
    expect(b.startedAt()! - stoppedAt).toBeLessThan(timings.leaseDurationMs);
    const after = await readLease();
    expect(after.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(b.leaders).toContain('b');
    b.controller.abort();
    await b.done;
    client.close();
  });

  it('takes over from a crashed leader (no release) only after the lease duration', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'le-');
    const a = startCandidate(namespace, 'a', false);
    await waitLogged('a leads', () => a.elector.isLeader(), 5_000);
    const b = startCandidate(namespace, 'b');
    await waitLogged('b sees a as leader', () => b.elector.getLeader() === 'a', 5_000);

    // "Crash": a stops renewing and does not release.
    const crashedAt = performance.now();
    a.controller.abort();
    await a.done;
    await waitLogged('b took over', () => b.elector.isLeader(), timings.leaseDurationMs + 2_000);
    const tookOverAfter = b.startedAt()! - crashedAt;
    // b saw a's last renewal at most one retry before the crash, and waits a full lease from then.
    expect(tookOverAfter).toBeGreaterThanOrEqual(
      timings.leaseDurationMs - timings.retryPeriodMs * 2.2 - 100,
    );
    expect(tookOverAfter).toBeLessThan(
      timings.leaseDurationMs + timings.retryPeriodMs * 2.2 + 2_000,
    );
    b.controller.abort();
    await b.done;
  });
});
