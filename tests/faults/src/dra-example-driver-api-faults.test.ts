// The DRA example driver as its deploy/ ServiceAccount, publishing a 10-GPU pool, under the
// apiserver's own refusals: a watch expired by etcd compaction (410 Gone) and API Priority and
// Fairness giving its ServiceAccount one seat and no queue (429 with Retry-After). Every device
// ends published once (0 lost, 0 duplicates), the fault is seen to have happened, the request
// rate stays within the driver's client budget, and its memory comes back.

import { setTimeout as sleep } from 'node:timers/promises';
import type { AppProcess } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import type { AuditEvent, ControlPlane } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRA_BUDGET_PER_MIN,
  DraDriverWork,
  expectPublished,
  RBAC_SYNC_MS,
} from './dra-example-driver-work.js';
import { seatHolder, startApiFaultPlane, throttle } from './flow-control.js';
import {
  answered,
  auditMark,
  clusterOf,
  expiredWatchLogs,
  requestsSince,
  restartOverCompactedEtcd,
  rssMb,
} from './harness.js';
import { RETRY_AFTER_TOLERANCE_MS, RecordingProxy } from './recording-proxy.js';

let plane: ControlPlane;
let work: DraDriverWork;

beforeAll(async () => {
  plane = await startApiFaultPlane();
  work = new DraDriverWork(plane);
});
afterAll(async () => {
  work?.client.close();
  await plane?.stop();
});

/** The neighbour's create that holds the seat (the driver sends no fieldManager). */
const NEIGHBOUR_PATH = '/apis/resource.k8s.io/v1/resourceslices?fieldManager=faults-neighbour';
/** The neighbour's probe (the driver lists only its node's slices, 500 a page). */
const PROBE_PATH = '/apis/resource.k8s.io/v1/resourceslices?limit=1';
const neighbours = (e: AuditEvent) =>
  e.requestURI === NEIGHBOUR_PATH || e.requestURI === PROBE_PATH;

/** The 429s answered to the driver (not to its neighbour). */
function driversThrottled(requests: readonly AuditEvent[]): number {
  return answered(
    requests.filter((e) => !neighbours(e)),
    429,
  );
}

/** Resolves once `driver` logged that it started publishing. */
function publishing(driver: AppProcess): Promise<unknown> {
  return waitFor('publishing', () => driver.logs.some((l) => l.includes('publishing devices')), {
    intervalMs: 5,
    timeoutMs: 60_000,
  });
}

describe('dra-example-driver under the apiserver refusing its requests', () => {
  it('410 Gone: its watch resumed from a version etcd compacted (apiserver restarted while it publishes, watch cache on)', async () => {
    const nodeName = await work.newNode('dra-gone');
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    const driver = await work.start(nodeName, clusterOf(plane), ['--num-devices=10']);
    let faultEndedAt = Number.POSITIVE_INFINITY;
    try {
      // Mid-work: it has listed and watches its slices and starts publishing; a new apiserver
      // over an etcd compacted past every version it has seen answers its watch 410 Gone.
      await publishing(driver);
      const rssBeforeMb = await rssMb(driver);
      await restartOverCompactedEtcd(plane, driver, {
        group: 'resource.k8s.io',
        resource: 'resourceslices',
        verb: 'watch',
      });
      faultEndedAt = Date.now();
      const result = await work.converge({
        fault: '410 Gone (compacted)',
        nodeName,
        app: driver,
        mark,
        devices: 10,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
        annotate: () => ({ expired: expiredWatchLogs(driver.logs).length }),
      });
      expectPublished(result, 10);
      // The fault happened: its informer was told its version expired, and relisted.
      expect(result.expired, driver.logs.slice(-10).join('\n')).toBeGreaterThan(0);
      expect(result.requestsPerMinAfter).toBeLessThanOrEqual(DRA_BUDGET_PER_MIN);
    } finally {
      await work.stopDriver(driver, mark, faultEndedAt + RBAC_SYNC_MS);
    }
  });

  it('429 from API Priority and Fairness (one seat, no queue, for its ServiceAccount, held by a neighbour): honours Retry-After, publishes once relaxed', async () => {
    const nodeName = await work.newNode('dra-apf');
    const mark = await auditMark(plane);
    // Both processes through a proxy that records each answer's Retry-After and when the same
    // request was sent again (one cluster, so they share the ServiceAccount's login).
    const recorder = await RecordingProxy.start(plane);
    const first = await work.start(nodeName, recorder.cluster, ['--num-devices=10']);
    let driver = first;
    try {
      // Its memory when it runs unthrottled; then it starts again with its pool changed while
      // its ServiceAccount has one seat. (The first one is stopped only at the end: its
      // ServiceAccount stays, with the neighbour's token.)
      await waitFor('the pool published', () => work.slicesOf(nodeName), {
        until: (s) => s.length === 1,
        timeoutMs: 60_000,
      });
      const rssBeforeMb = await rssMb(first);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const faultStartedAt = Date.now();
      const tight = await throttle(plane, first.rbac, 'ctrlkit-faults-dra', 1);
      // The driver sends one request at a time, which a lone seat would serve: the seat is
      // held by another client of its ServiceAccount (as drivers on other nodes would be), so
      // its requests find it taken.
      const neighbour = await seatHolder(plane, first.rbac, NEIGHBOUR_PATH);
      let probe: { status: number; retryAfter: string | undefined } | undefined;
      try {
        driver = await work.start(nodeName, recorder.cluster, ['--num-devices=12']);
        await waitFor(
          '429s answered to the driver',
          async () => driversThrottled(await requestsSince(plane, driver.rbac.username, mark)),
          { until: (n) => n >= 3, timeoutMs: 30_000, intervalMs: 500 },
        );
        probe = await neighbour.probe(PROBE_PATH);
        // Held a while longer: what the driver does while refused is the point.
        await sleep(5_000);
      } finally {
        neighbour.release();
        await tight.relax();
      }
      const faultEndedAt = Date.now();
      const result = await work.converge({
        fault: '429 from API Priority and Fairness',
        nodeName,
        app: driver,
        mark,
        devices: 12,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
        annotate: (requests) => ({
          throttled: driversThrottled(requests),
          retryAfterMarginMs: Math.min(...recorder.retryAfterMargins()),
        }),
        exclude: neighbours,
      });
      expectPublished(result, 12);
      expect(result.throttled).toBeGreaterThan(0);
      // Each 429 sent again no sooner than its Retry-After said (a small tolerance for timers).
      expect(recorder.retryAfterMargins().length).toBeGreaterThan(0);
      expect(result.retryAfterMarginMs).toBeGreaterThanOrEqual(-RETRY_AFTER_TOLERANCE_MS);
      // The apiserver's 429s carry a Retry-After in seconds (seen by a probe), which the
      // driver's client waits before sending again.
      expect(probe?.status).toBe(429);
      expect(Number(probe?.retryAfter)).toBeGreaterThanOrEqual(1);
      // No hot loop: refused requests wait the server's Retry-After, within the client's budget.
      expect(result.requestsPerMinDuring).toBeLessThanOrEqual(DRA_BUDGET_PER_MIN);
      expect(result.requestsPerMinAfter).toBeLessThanOrEqual(DRA_BUDGET_PER_MIN);
    } finally {
      await work.stopDriver(driver, mark);
      if (driver !== first) await work.stopDriver(first, mark);
      await recorder.close();
    }
  });
});
