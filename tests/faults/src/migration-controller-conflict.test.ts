// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under a second writer (409 Conflict): every VM ends Succeeded
// (0 lost), no VM's VirtualMachine, DataVolume or conversion pod is created twice (0 duplicates),
// and its request rate stays low once the plan is done. CDI, KubeVirt, the kubelet and the
// source's side of the conversion are the simulators of `migration-world.ts`. Each fault kind has
// a file and a control plane of its own (migration-controller-file-world.ts), so the kinds run
// side by side.

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

const SERVER = 'nfs.example';

const file = migrationWorldPerFile([SERVER]);

describe('migration-controller under faults: a second writer', () => {
  it('409 Conflict: a second writer relabels the Plan and the Migration while the app writes their status', async () => {
    const { plane, world } = file;
    const c = await planCase(world, 'mc-conflict', SERVER);
    const app = await startController(world, clusterOf(plane));
    let writing = true;
    try {
      const mark = await auditMark(plane);
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(app);
      const faultStartedAt = Date.now();
      // Four writers at once: the controller's status updates (a PUT with the version it saw)
      // land between their patches.
      const writer = Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          for (let n = 0; writing; n++) await c.relabel(`${w}-${n}`);
        }),
      );
      await sleep(10_000);
      writing = false;
      await writer;
      const result = await measurePlan(world, c, {
        fault: '409 from a second writer',
        app,
        username: app.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt,
        faultEndedAt: Date.now(),
      });
      expectAllMigrated(result);
      // The fault happened: the controller's status updates were answered 409, and retried.
      expect(result.conflicts).toBeGreaterThanOrEqual(1);
    } finally {
      writing = false;
      await stopController(app);
    }
  }, 300_000);
});
