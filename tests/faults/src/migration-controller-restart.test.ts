// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under kube-apiserver restarts: every VM ends Succeeded (0
// lost), no VM's VirtualMachine, DataVolume or conversion pod is created twice (0 duplicates), and
// its request rate stays low once the plan is done. CDI, KubeVirt, the kubelet and the source's
// side of the conversion are the simulators of `migration-world.ts`. Each fault kind has a file
// and a control plane of its own (migration-controller-file-world.ts), so the kinds run side by
// side.

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { pollHealth } from './app-health.js';
import { auditMark, clusterOf, rssMb } from './harness.js';
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

const file = migrationWorldPerFile([SERVER]);

describe('migration-controller under faults: kube-apiserver restarts', () => {
  it('kube-apiserver killed and restarted 3 times mid-plan', async () => {
    const { plane, world } = file;
    const c = await planCase(world, 'mc-restart', SERVER);
    const app = await startController(world, clusterOf(plane));
    let restartedAt = Number.POSITIVE_INFINITY;
    try {
      const mark = await auditMark(plane);
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(app);
      const faultStartedAt = Date.now();
      const health = pollHealth(() => app.endpoints);
      const inFlightAtFault = await c.vmsInFlight();
      for (let round = 0; round < 3; round++) {
        await plane.restartApiServer();
        await sleep(2_000);
      }
      restartedAt = Date.now();
      const result = await measurePlan(world, c, {
        fault: 'apiserver restarted 3x',
        app,
        username: app.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt,
        faultEndedAt: restartedAt,
        inFlightAtFault,
        health,
      });
      expectAllMigrated(result);
      expect(result.inFlightAtFault, 'VMs under way when the apiserver went').toBeGreaterThan(0);
      // Its informers saw the apiserver go and came back (checked in measurePlan); /healthz,
      // which fails after 2 min without a watch or 20 s past a missed renewal, answered 200.
      expect(result.unwatchedMs).toBeGreaterThan(0);
      expect(result.healthzFailed?.startsWith('0/')).toBe(true);
    } finally {
      await stopController(app, restartedAt + RBAC_SYNC_MS);
    }
  }, 300_000);
});
