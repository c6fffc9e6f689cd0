// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under a half-open connection: every VM ends Succeeded (0
// lost), no VM's VirtualMachine, DataVolume or conversion pod is created twice (0 duplicates), and
// its request rate stays low once the plan is done. CDI, KubeVirt, the kubelet and the source's
// side of the conversion are the simulators of `migration-world.ts`. Each fault kind has a file
// and a control plane of its own (migration-controller-file-world.ts), so the kinds run side by
// side.

import type { AppProcess } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { pollHealth } from './app-health.js';
import { auditMark, proxiedCluster, rssMb } from './harness.js';
import { migrationWorldPerFile } from './migration-controller-file-world.js';
import {
  type ControllerProcess,
  expectAllMigrated,
  measurePlan,
  planCase,
  runUntilStarted,
  startController,
  stopController,
} from './migration-world.js';
import { recordResult } from './results.js';

const SERVER = 'nfs.example';
/** From the freeze of its connection to a controller leading again (restarted, as by its Deployment). */
const HALF_OPEN_BOUND_MS = 45_000;

const file = migrationWorldPerFile([SERVER]);

describe('migration-controller under faults: a half-open connection', () => {
  it('half-open connection: detected within 45 s; the leader gives up its Lease and exits, and restarted (as by its Deployment) finishes the plan', async () => {
    const { plane, world } = file;
    const c = await planCase(world, 'mc-half-open', SERVER);
    const { proxy, cluster } = await proxiedCluster(plane);
    const first = await startController(world, cluster);
    let second: ControllerProcess | undefined;
    try {
      const mark = await auditMark(plane);
      await runUntilStarted(c, 1);
      const rssBeforeMb = await rssMb(first);
      const frozenAt = Date.now();
      const health = pollHealth(() => second?.endpoints ?? first.endpoints);
      expect(proxy.freeze()).toBeGreaterThan(0);
      // Its Lease renewals hang on the frozen connection: past the renew deadline it stops
      // leading, and exits once its controllers stopped (as controller-runtime's managers do).
      const logged = (app: AppProcess, text: string) => () =>
        app.logs.some((l) => l.includes(text));
      await waitFor('leadership given up', logged(first, 'stopped leading'), {
        timeoutMs: 45_000,
        intervalMs: 100,
      });
      const detectedMs = Date.now() - frozenAt;
      expect(await first.exited).not.toBe(0);
      const exitedMs = Date.now() - frozenAt;
      const restarted = await startController(world, cluster);
      second = restarted;
      await waitFor('the restarted controller leading', logged(restarted, 'started leading'), {
        timeoutMs: 60_000,
        intervalMs: 100,
      });
      const recoveredAt = Date.now();
      const result = await measurePlan(world, c, {
        fault: 'half-open connection',
        app: restarted,
        username: restarted.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt: frozenAt,
        faultEndedAt: recoveredAt,
        health,
      });
      console.log(
        `half-open: leadership given up after ${detectedMs} ms, exited after ${exitedMs} ms, leading again (restarted) after ${recoveredAt - frozenAt} ms, plan done ${result.convergeMs} ms later`,
      );
      await recordResult({ ...result, convergeMs: recoveredAt - frozenAt });
      expect(detectedMs).toBeLessThan(HALF_OPEN_BOUND_MS);
      expect(recoveredAt - frozenAt, 'from the freeze to leading again').toBeLessThanOrEqual(
        HALF_OPEN_BOUND_MS,
      );
      expectAllMigrated(result);
    } finally {
      await first.stop().catch(() => undefined);
      if (second !== undefined) await stopController(second);
      await proxy.close();
    }
  }, 300_000);
});
