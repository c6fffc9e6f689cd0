// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under its leader SIGKILLed: every VM ends Succeeded (0 lost),
// no VM's VirtualMachine, DataVolume or conversion pod is created twice (0 duplicates), and its
// request rate stays low once the plan is done. CDI, KubeVirt, the kubelet and the source's side
// of the conversion are the simulators of `migration-world.ts`. Each fault kind has a file and a
// control plane of its own (migration-controller-file-world.ts), so the kinds run side by side.

import { waitFor } from '@ctrlkit/core/testing';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Lease } from '@kubernetes/client-node';
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

/** The Manager's leader election: lease duration and the longest wait between attempts (2 s × 2.2). */
const LEASE_DURATION_MS = 15_000;
const MAX_RETRY_WAIT_MS = 4_400;
const SERVER = 'nfs.example';

const file = migrationWorldPerFile([SERVER]);

describe('migration-controller under faults: leader failover', () => {
  it('two replicas: the leader SIGKILLed mid-plan, the other takes over within the lease duration (plus two retry waits, as client-go counts it) and finishes', async () => {
    const { plane, world } = file;
    const c = await planCase(world, 'mc-failover', SERVER);
    const leases = createClient(plane.kubeConfig);
    const holder = async () =>
      (
        await leases
          .get<V1Lease>('coordination.k8s.io/v1/leases', 'ctrlkit-migration-controller', {
            namespace: 'ctrlkit-migration',
          })
          .catch(() => undefined)
      )?.spec?.holderIdentity;
    const mark = await auditMark(plane);
    const leader = await startController(world, clusterOf(plane));
    // The standby starts once the first replica holds the Lease: started together, either may
    // win it (a CI run saw the second win, so the SIGKILL hit the standby and nobody took over).
    const leaderId = await waitFor('the first replica leading', holder, { timeoutMs: 60_000 });
    const standby = await startController(world, clusterOf(plane));
    try {
      await runUntilStarted(c, 3);
      const rssBeforeMb = await rssMb(standby);
      expect(await holder()).toBe(leaderId);
      const killedAt = Date.now();
      await leader.kill();
      const takenOver = await waitFor('the standby leading', holder, {
        until: (h) => h !== undefined && h !== leaderId,
        timeoutMs: 60_000,
        intervalMs: 100,
      });
      const takeoverMs = Date.now() - killedAt;
      expect(takenOver).not.toBe(leaderId);
      const result = await measurePlan(world, c, {
        fault: 'leader SIGKILLed, standby takes over',
        app: standby,
        username: standby.rbac.username,
        mark,
        rssBeforeMb,
        faultStartedAt: killedAt,
        faultEndedAt: killedAt + takeoverMs,
      });
      console.log(`takeover after the leader's SIGKILL: ${takeoverMs} ms`);
      // As client-go's, the standby counts the lease duration on its own clock from when it
      // observed the leader's last renewal (before the kill), which it saw at its next attempt
      // (at most MAX_RETRY_WAIT_MS after the renewal); once expired, it takes the Lease at its
      // next attempt, at most MAX_RETRY_WAIT_MS later again. Counting from the renewal's
      // timestamp instead (one retry wait) failed a run where the standby had seen the last
      // renewal 0.6 s late: that bound is not the one client-go keeps.
      expect(
        takeoverMs,
        `takeover ${takeoverMs} ms after the SIGKILL (holder ${leaderId}, then ${takenOver})`,
      ).toBeLessThan(LEASE_DURATION_MS + 2 * MAX_RETRY_WAIT_MS);
      expectAllMigrated(result);
    } finally {
      await stopController(standby);
      await leader.stop().catch(() => undefined);
      leases.close();
    }
  }, 300_000);
});
