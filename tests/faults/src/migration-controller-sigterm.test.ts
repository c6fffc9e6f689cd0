// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under a SIGTERM mid-plan: every VM ends Succeeded (0 lost),
// no VM's VirtualMachine, DataVolume or conversion pod is created twice (0 duplicates), and its
// request rate stays low once the plan is done. CDI, KubeVirt, the kubelet and the source's side
// of the conversion are the simulators of `migration-world.ts`. Each fault kind has a file and a
// control plane of its own (migration-controller-file-world.ts), so the kinds run side by side.

import { describe, expect, it } from 'vitest';
import { auditMark, clusterOf, rssMb } from './harness.js';
import { migrationWorldPerFile } from './migration-controller-file-world.js';
import {
  expectAllMigrated,
  measurePlan,
  planCase,
  runUntilStarted,
  startController,
  stopController,
} from './migration-world.js';

const SERVER = 'nfs.example';

const file = migrationWorldPerFile([SERVER]);

describe('migration-controller under faults: SIGTERM', () => {
  it('SIGTERM mid-plan, then a restart: the plan finishes, no VM migrated twice', async () => {
    const { plane, world } = file;
    const c = await planCase(world, 'mc-sigterm', SERVER);
    const mark = await auditMark(plane);
    const first = await startController(world, clusterOf(plane));
    let rssBeforeMb = 0;
    let faultStartedAt = 0;
    let inFlightAtFault = 0;
    try {
      await runUntilStarted(c, 3);
      rssBeforeMb = await rssMb(first);
      inFlightAtFault = await c.vmsInFlight();
      faultStartedAt = Date.now();
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      await stopController(first);
    }
    const second = await startController(world, clusterOf(plane));
    try {
      const result = await measurePlan(world, c, {
        fault: 'SIGTERM mid-work, restart',
        app: second,
        username: second.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt,
        faultEndedAt: Date.now(),
        inFlightAtFault,
      });
      expectAllMigrated(result);
      expect(result.inFlightAtFault, 'VMs under way at the SIGTERM').toBeGreaterThan(0);
    } finally {
      await stopController(second);
    }
  }, 300_000);
});
