// The migration controller as its deploy/ ServiceAccount (one replica, no leader election),
// migrating a plan of 20 OVA VMs, under the apiserver's own refusals: API Priority and Fairness
// giving its ServiceAccount one seat and no queue (429 with Retry-After). Every VM ends Succeeded
// (0 lost), none is migrated twice (0 duplicates), the fault is seen to have happened, each 429 is
// sent again no sooner than its Retry-After, and its memory comes back. Each fault kind has a file
// and a control plane of its own (whose apiserver compacts etcd every second, watch cache on, and
// has a small concurrency for API Priority and Fairness to share), so the kinds run side by side.

import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { seatHolder, startApiFaultPlane, throttle } from './flow-control.js';
import { answered, auditMark, requestsSince, rssMb } from './harness.js';
import { migrationWorldPerFile } from './migration-controller-file-world.js';
import {
  expectAllMigrated,
  measurePlan,
  planCase,
  runUntilStarted,
  startController,
  stopController,
} from './migration-world.js';
import { RETRY_AFTER_TOLERANCE_MS, RecordingProxy } from './recording-proxy.js';

const SERVER = 'nfs.example';
/** The quiet rate of a finished plan: a few requests a minute, not a loop. */
const QUIET_PER_MIN = 120;

const file = migrationWorldPerFile([SERVER], startApiFaultPlane);

describe('migration-controller under the apiserver refusing its requests: 429', () => {
  it('429 from API Priority and Fairness (one seat, no queue): each 429 sent again after its Retry-After, the plan finishes once relaxed', async () => {
    const { plane, world } = file;
    const c = await planCase(world, 'mc-apf', SERVER);
    // Through a proxy that records each answer's Retry-After and when it sent again.
    const recorder = await RecordingProxy.start(plane);
    const app = await startController(world, recorder.cluster, { leaderElect: false });
    const mark = await auditMark(plane);
    try {
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(app);
      const faultStartedAt = Date.now();
      // Its reconciles, informers and status writes overlap only now and then when it runs
      // alone (a CI run saw one 429 in a minute): the seat is held by another client of its
      // ServiceAccount (as a second replica's requests would), so its requests find it taken.
      const tight = await throttle(plane, app.rbac, 'ctrlkit-faults-mc', 1);
      const neighbour = await seatHolder(
        plane,
        app.rbac,
        `/api/v1/namespaces/${c.namespace}/events?fieldManager=faults-neighbour`,
      );
      try {
        await waitFor(
          '429s answered to the controller',
          async () => answered(await requestsSince(plane, app.rbac.username, mark), 429),
          { until: (n) => n >= 3, timeoutMs: 60_000, intervalMs: 500 },
        );
        // Held a while longer: what the controller does while refused is the point.
        await sleep(5_000);
      } finally {
        neighbour.release();
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
