// The migration controller as its deploy/ ServiceAccount (one replica, no leader election),
// migrating a plan of 20 OVA VMs, under the apiserver's own refusals: its watches resumed from
// versions etcd compacted (410 Gone). Every VM ends Succeeded (0 lost), none is migrated twice (0
// duplicates), the fault is seen to have happened, and its memory comes back. Each fault kind has
// a file and a control plane of its own (whose apiserver compacts etcd every second, watch cache
// on, and has a small concurrency for API Priority and Fairness to share), so the kinds run side
// by side.

import { describe, expect, it } from 'vitest';
import { startApiFaultPlane } from './flow-control.js';
import {
  auditMark,
  clusterOf,
  expiredWatchLogs,
  restartOverCompactedEtcd,
  rssMb,
} from './harness.js';
import { migrationWorldPerFile } from './migration-controller-file-world.js';
import {
  expectAllMigrated,
  measurePlan,
  planCase,
  RBAC_SYNC_MS,
  runUntilStarted,
  startController,
  stopController,
} from './migration-world.js';

const SERVER = 'nfs.example';
/** The quiet rate of a finished plan: a few requests a minute, not a loop. */
const QUIET_PER_MIN = 120;

const file = migrationWorldPerFile([SERVER], startApiFaultPlane);

describe('migration-controller under the apiserver refusing its requests: 410 Gone', () => {
  it('410 Gone: its watches resumed from versions etcd compacted (apiserver restarted mid-plan, watch cache on)', async () => {
    const { plane, world } = file;
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
});
