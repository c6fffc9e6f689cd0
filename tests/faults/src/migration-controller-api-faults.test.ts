// The migration controller as its deploy/ ServiceAccount (one replica, no leader election),
// migrating a plan of 20 OVA VMs, under the apiserver's own refusals: its watches resumed from
// versions etcd compacted (410 Gone), and API Priority and Fairness giving its ServiceAccount
// one seat and no queue (429 with Retry-After). Every VM ends Succeeded
// (0 lost), none is migrated twice (0 duplicates), the fault is seen to have happened, each
// 429 is sent again no sooner than its Retry-After, and its memory comes back.

import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@ctrlkit/core/testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiFaultPlane, throttle } from './flow-control.js';
import {
  answered,
  auditMark,
  clusterOf,
  expiredWatchLogs,
  requestsSince,
  restartOverCompactedEtcd,
  rssMb,
} from './harness.js';
import {
  expectAllMigrated,
  type MigrationWorld,
  measurePlan,
  planCase,
  RBAC_SYNC_MS,
  runUntilStarted,
  startController,
  startMigrationWorld,
  stopController,
} from './migration-world.js';
import { RETRY_AFTER_TOLERANCE_MS, RecordingProxy } from './recording-proxy.js';

const SERVER = 'nfs.example';
/** The quiet rate of a finished plan: a few requests a minute, not a loop. */
const QUIET_PER_MIN = 120;

let plane: ControlPlane;
let world: MigrationWorld;

beforeAll(async () => {
  plane = await startApiFaultPlane();
  world = await startMigrationWorld(plane, [SERVER]);
}, 120_000);
afterAll(async () => {
  await world?.stop();
  await plane?.stop();
});

describe('migration-controller under the apiserver refusing its requests', () => {
  it('410 Gone: its watches resumed from versions etcd compacted (apiserver restarted mid-plan, watch cache on)', async () => {
    const c = await planCase(world, 'mc-gone', SERVER);
    const app = await startController(world, clusterOf(plane), { leaderElect: false });
    const mark = await auditMark(plane);
    let faultEndedAt = Number.POSITIVE_INFINITY;
    try {
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(app);
      const faultStartedAt = Date.now();
      const inFlightAtFault = await c.vmsInFlight();
      await restartOverCompactedEtcd(plane, app, {
        group: 'forklift.ctrlkit.dev',
        resource: 'plans',
        verb: 'watch',
      });
      faultEndedAt = Date.now();
      const result = await measurePlan(world, c, {
        fault: '410 Gone (compacted)',
        app,
        username: app.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt,
        faultEndedAt,
        inFlightAtFault,
        annotate: () => ({ expired: expiredWatchLogs(app.logs).length }),
      });
      expectAllMigrated(result);
      // The fault happened: its informers were told their versions expired, and relisted.
      expect(result.expired, app.logs.slice(-10).join('\n')).toBeGreaterThan(0);
      expect(result.requestsPerMinAfter).toBeLessThan(QUIET_PER_MIN);
    } finally {
      await stopController(app, faultEndedAt + RBAC_SYNC_MS);
    }
  }, 300_000);

  it('429 from API Priority and Fairness (one seat, no queue): each 429 sent again after its Retry-After, the plan finishes once relaxed', async () => {
    const c = await planCase(world, 'mc-apf', SERVER);
    // Through a proxy that records each answer's Retry-After and when it sent again.
    const recorder = await RecordingProxy.start(plane);
    const app = await startController(world, recorder.cluster, { leaderElect: false });
    const mark = await auditMark(plane);
    try {
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(app);
      const faultStartedAt = Date.now();
      // Its concurrent reconciles, informers and simulated conversions' status writes exceed
      // the one seat on their own.
      const tight = await throttle(plane, app.rbac, 'ctrlkit-faults-mc', 1);
      try {
        await waitFor(
          '429s answered to the controller',
          async () => answered(await requestsSince(plane, app.rbac.username, mark), 429),
          { until: (n) => n >= 3, timeoutMs: 60_000, intervalMs: 500 },
        );
        // Held a while longer: what the controller does while refused is the point.
        await sleep(5_000);
      } finally {
        await tight.relax();
      }
      const result = await measurePlan(world, c, {
        fault: '429 from API Priority and Fairness',
        app,
        username: app.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt,
        faultEndedAt: Date.now(),
        annotate: (requests) => ({
          throttled: answered(requests, 429),
          retryAfterMarginMs: Math.min(...recorder.retryAfterMargins()),
        }),
      });
      expectAllMigrated(result);
      expect(result.throttled).toBeGreaterThan(0);
      // Each 429 sent again no sooner than its Retry-After said (a small tolerance for timers).
      expect(recorder.retryAfterMargins().length).toBeGreaterThan(0);
      expect(result.retryAfterMarginMs).toBeGreaterThanOrEqual(-RETRY_AFTER_TOLERANCE_MS);
      expect(result.requestsPerMinAfter).toBeLessThan(QUIET_PER_MIN);
    } finally {
      await stopController(app);
      await recorder.close();
    }
  }, 300_000);
});
