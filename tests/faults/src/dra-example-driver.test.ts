// The DRA example driver as its deploy/ ServiceAccount, publishing a 10-GPU pool that changes,
// under each fault: every device ends published (0 lost), in no more slices than the pool needs
// (0 duplicates), the restart and SIGTERM cases hit its pool unpublished, its request rate
// stays low once converged, and its memory comes back.

import { setTimeout as sleep } from 'node:timers/promises';
import type { AppProcess } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollHealth } from './app-health.js';
import {
  DraDriverWork,
  devicesOf,
  expectPublished,
  RBAC_SYNC_MS,
  SLICES,
} from './dra-example-driver-work.js';
import {
  auditMark,
  clusterOf,
  proxiedCluster,
  rssMb,
  startFaultPlane,
  watchesSince,
} from './harness.js';
import { recordResult } from './results.js';

let plane: ControlPlane;
let work: DraDriverWork;

beforeAll(async () => {
  plane = await startFaultPlane();
  work = new DraDriverWork(plane);
});
afterAll(async () => {
  work?.client.close();
  await plane?.stop();
});

/**
 * The driver's client at one request per 2 s, none at once: its slices are written 2 s apart,
 * so a fault can land between them.
 */
const SLOW_PUBLISH = ['--kube-api-qps=0.5', '--kube-api-burst=1'];

/** Resolves once `driver` logged that it started publishing. */
function publishing(driver: AppProcess): Promise<unknown> {
  return waitFor('publishing', () => driver.logs.some((l) => l.includes('publishing devices')), {
    intervalMs: 5,
    timeoutMs: 60_000,
  });
}

describe('dra-example-driver under faults', () => {
  it('kube-apiserver killed and restarted 3 times while it publishes: its informer leaves watching and comes back, /healthz stays up', async () => {
    const nodeName = await work.newNode('dra-restart');
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    const driver = await work.start(nodeName, clusterOf(plane), ['--num-devices=10']);
    // Its memory once it runs (it publishes then), measured while the restarts go on.
    const rssBefore = publishing(driver).then(() => rssMb(driver));
    const health = pollHealth(() => driver.endpoints);
    let restartedAt = Number.POSITIVE_INFINITY;
    try {
      // The first restart lands while it starts: its pool not yet published.
      const inFlightAtFault = 10 - devicesOf(await work.slicesOf(nodeName)).length;
      for (let round = 0; round < 3; round++) {
        await plane.restartApiServer();
        await sleep(500);
      }
      restartedAt = Date.now();
      const result = await work.converge({
        fault: 'apiserver restarted 3x',
        nodeName,
        app: driver,
        mark,
        devices: 10,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt,
        faultEndedAt: restartedAt,
        rssBeforeMb: await rssBefore,
        inFlightAtFault,
        health,
      });
      expectPublished(result, 10);
      expect(
        result.inFlightAtFault,
        'devices not published when the apiserver went',
      ).toBeGreaterThan(0);
      // Its informer saw the apiserver go (out of `watching`), while /healthz, which fails only
      // after 2 min without a watch, kept answering 200: no restart of the pod for a blip.
      expect(result.unwatchedMs).toBeGreaterThan(0);
      expect(result.healthzFailed?.startsWith('0/')).toBe(true);
    } finally {
      await work.stopDriver(driver, mark, restartedAt + RBAC_SYNC_MS);
    }
  });

  it('half-open connection (a proxy that stops forwarding without closing): its watch is resumed on a fresh connection, healthy after', async () => {
    const nodeName = await work.newNode('dra-half-open');
    const { proxy, cluster } = await proxiedCluster(plane);
    const mark = await auditMark(plane);
    const driver = await work.start(nodeName, cluster, ['--num-devices=10']);
    try {
      await waitFor('the pool published', () => work.slicesOf(nodeName), {
        until: (s) => devicesOf(s).length === 10,
        timeoutMs: 60_000,
      });
      await sleep(1_000);
      const rssBeforeMb = await rssMb(driver);
      const frozenAt = Date.now();
      const health = pollHealth(() => driver.endpoints);
      expect(proxy.freeze()).toBeGreaterThan(0);
      // The work here is the watch itself: a new WATCH of ResourceSlices reaches the apiserver
      // (through a fresh connection) once the driver noticed the half-open one.
      const rewatched = await waitFor(
        'a new watch',
        async () =>
          (await watchesSince(plane, driver.rbac.username, mark)).find(
            (e) =>
              e.objectRef?.resource === 'resourceslices' &&
              Date.parse(e.requestReceivedTimestamp) > frozenAt,
          ),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      const result = await work.converge({
        fault: 'half-open connection',
        nodeName,
        app: driver,
        mark,
        devices: 10,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt: frozenAt,
        faultEndedAt: frozenAt,
        rssBeforeMb,
        health,
      });
      const detectedMs = Date.parse(rewatched?.requestReceivedTimestamp ?? '') - frozenAt;
      await recordResult({ ...result, fault: 'half-open connection', convergeMs: detectedMs });
      expect(detectedMs).toBeLessThan(45_000);
      expectPublished(result, 10);
      // Its informer left `watching` until the new watch, while /healthz kept answering 200.
      expect(result.unwatchedMs).toBeGreaterThan(0);
      expect(result.healthzFailed?.startsWith('0/')).toBe(true);
      expect(driver.logs.some((l) => l.includes('a half-open connection'))).toBe(true);
    } finally {
      await work.stopDriver(driver, mark);
      await proxy.close();
    }
  });

  it('SIGTERM mid-publish (one of its two slices written), then a restart: the other slice published once, none twice', async () => {
    const nodeName = await work.newNode('dra-sigterm');
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    // 8 GPUs (at most 8 counter sets), each whole and in 2 partitions: 24 devices in 2 slices
    // (the counters first, then the devices), written 2 s apart (SLOW_PUBLISH).
    const pool = ['--num-devices=8', '--partitions=2'];
    const first = await work.start(nodeName, clusterOf(plane), [...pool, ...SLOW_PUBLISH]);
    // Before: the first process; after: the second (a restart starts from nothing).
    let rssBeforeMb = 0;
    let slicesAtFault: Wire<V1ResourceSlice>[] = [];
    try {
      // Mid-publish: once its first slice is written. It is paused there (SIGSTOP) so what it
      // had written when the SIGTERM came can be counted, then terminated and resumed.
      await waitFor('its first slice', () => work.slicesOf(nodeName), {
        until: (s) => s.length > 0,
        intervalMs: 5,
        timeoutMs: 60_000,
      });
      first.child.kill('SIGSTOP');
      rssBeforeMb = await rssMb(first);
      slicesAtFault = await work.slicesOf(nodeName);
      first.child.kill('SIGTERM');
      first.child.kill('SIGCONT');
      expect(await first.exited).toBe(0);
    } finally {
      await work.stopDriver(first, mark);
    }
    // The SIGTERM interrupted its work: one slice of two written (the pool half published)
    // when it came, and no more once the process had exited.
    expect(slicesAtFault.length, 'slices written when the SIGTERM came').toBe(1);
    expect((await work.slicesOf(nodeName)).length, 'slices once it exited').toBe(1);
    const second = await work.start(nodeName, clusterOf(plane), [...pool, ...SLOW_PUBLISH]);
    const faultEndedAt = Date.now();
    try {
      const result = await work.converge({
        fault: 'SIGTERM mid-work, restart',
        nodeName,
        app: second,
        mark,
        devices: 24,
        slices: 2,
        // Each slice created once over both processes: the restart keeps the slice the first
        // wrote (it updates it) and creates only the missing one.
        expectedCreates: 2,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
        inFlightAtFault: 24 - devicesOf(slicesAtFault).length,
      });
      expectPublished(result, 24);
      expect(result.inFlightAtFault, 'devices not published when the SIGTERM came').toBe(24);
    } finally {
      await work.stopDriver(second, mark);
    }
  });

  it('409 Conflict on slice writes (a second writer changing the same slice)', async () => {
    const nodeName = await work.newNode('dra-conflict');
    const mark = await auditMark(plane);
    const first = await work.start(nodeName, clusterOf(plane), ['--num-devices=10']);
    // Before: the first process with its pool published; after: the second.
    let rssBeforeMb = 0;
    try {
      await waitFor('the pool published', () => work.slicesOf(nodeName), {
        until: (s) => devicesOf(s).length === 10,
        timeoutMs: 60_000,
      });
      rssBeforeMb = await rssMb(first);
    } finally {
      await work.stopDriver(first, mark);
    }
    const faultStartedAt = Date.now();
    // The second writer relabels the slice again and again while the driver rewrites it.
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        for (const s of await work.slicesOf(nodeName)) {
          await work.client
            .patch(SLICES, s.metadata?.name ?? '', { metadata: { labels: { writer: String(n) } } })
            .catch(() => undefined);
        }
      }
    })();
    const second = await work.start(nodeName, clusterOf(plane), ['--num-devices=12']);
    try {
      await sleep(3_000);
      writing = false;
      await writer;
      const faultEndedAt = Date.now();
      const result = await work.converge({
        fault: '409 from a second writer',
        nodeName,
        app: second,
        mark,
        devices: 12,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
      });
      expectPublished(result, 12);
      // The fault happened: the driver's slice writes were answered 409, and retried.
      expect(result.conflicts).toBeGreaterThanOrEqual(1);
    } finally {
      writing = false;
      await work.stopDriver(second, mark);
    }
  });
});
