// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under a source that errors, hangs and is slow: every VM ends
// Succeeded (0 lost), no VM's VirtualMachine, DataVolume or conversion pod is created twice (0
// duplicates), and its request rate stays low once the plan is done. CDI, KubeVirt, the kubelet
// and the source's side of the conversion are the simulators of `migration-world.ts`. Each fault
// kind has a file and a control plane of its own (migration-controller-file-world.ts), so the
// kinds run side by side.

import { setTimeout as sleep } from 'node:timers/promises';
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

const SERVER = 'nfs-flaky.example';

const file = migrationWorldPerFile([SERVER]);

describe('migration-controller under faults: a misbehaving source', () => {
  it('the source errors (share gone), hangs past a conversion, and is slow: the plan completes without a hot loop', async () => {
    const { plane, world } = file;
    const server = SERVER;
    const c = await planCase(world, 'mc-source', server);
    const app = await startController(world, clusterOf(plane));
    try {
      const mark = await auditMark(plane);
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(app);
      const faultStartedAt = Date.now();
      // Errors: the NFS share is gone for 10 s (every read of it fails).
      const putBack = await world.source.takeShareAway(server);
      await sleep(10_000);
      await putBack();
      // Hangs: every conversion pod stays Running for 20 s; then slow: 3x the conversion time.
      world.source.hungUntil = Date.now() + 20_000;
      const normalMs = world.source.conversionMs;
      world.source.conversionMs = normalMs * 3;
      await sleep(20_000);
      const faultEndedAt = Date.now();
      const result = await measurePlan(world, c, {
        fault: 'source errors, hangs, is slow',
        app,
        username: app.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt,
        faultEndedAt,
        timeoutMs: 180_000,
      }).finally(() => {
        world.source.conversionMs = normalMs;
      });
      expectAllMigrated(result);
      // No hot loop: the 20 VMs' work is a few hundred requests a minute, not thousands.
      expect(result.requestsPerMinDuring).toBeLessThan(1_500);
      expect(result.requestsPerMinAfter).toBeLessThan(120);
    } finally {
      await stopController(app);
    }
  }, 300_000);
});
