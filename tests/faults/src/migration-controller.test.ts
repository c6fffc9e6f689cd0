// The migration controller as its deploy/ ServiceAccount, migrating a plan of 20 OVA VMs to the
// KubeVirt destination (5 at a time) under each fault: every VM ends Succeeded (0 lost), no VM's
// VirtualMachine, DataVolume or conversion pod is created twice (0 duplicates), and its request
// rate stays low once the plan is done. CDI, KubeVirt, the kubelet and the source's side of the
// conversion are the simulators of `migration-world.ts`.

import { setTimeout as sleep } from 'node:timers/promises';
import type { AppProcess } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Lease } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollHealth } from './app-health.js';
import { auditMark, clusterOf, proxiedCluster, rssMb, startFaultPlane } from './harness.js';
import {
  type ControllerProcess,
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
import { recordResult } from './results.js';

/** The Manager's leader election: lease duration and the longest wait between attempts (2 s × 2.2). */
const LEASE_DURATION_MS = 15_000;
const MAX_RETRY_WAIT_MS = 4_400;
const SERVERS = ['nfs.example', 'nfs-flaky.example'];
/** From the freeze of its connection to a controller leading again (restarted, as by its Deployment). */
const HALF_OPEN_BOUND_MS = 45_000;

let plane: ControlPlane;
let world: MigrationWorld;

beforeAll(async () => {
  plane = await startFaultPlane();
  world = await startMigrationWorld(plane, SERVERS);
}, 120_000);
afterAll(async () => {
  await world?.stop();
  await plane?.stop();
});

describe('migration-controller under faults', () => {
  it('kube-apiserver killed and restarted 3 times mid-plan', async () => {
    const c = await planCase(world, 'mc-restart', SERVERS[0] ?? '');
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

  it('half-open connection: detected within 45 s; the leader gives up its Lease and exits, and restarted (as by its Deployment) finishes the plan', async () => {
    const c = await planCase(world, 'mc-half-open', SERVERS[0] ?? '');
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

  it('409 Conflict: a second writer relabels the Plan and the Migration while the app writes their status', async () => {
    const c = await planCase(world, 'mc-conflict', SERVERS[0] ?? '');
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

  it('SIGTERM mid-plan, then a restart: the plan finishes, no VM migrated twice', async () => {
    const c = await planCase(world, 'mc-sigterm', SERVERS[0] ?? '');
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

  it('two replicas: the leader SIGKILLed mid-plan, the other takes over within the lease duration (plus one retry) and finishes', async () => {
    const c = await planCase(world, 'mc-failover', SERVERS[0] ?? '');
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
    const standby = await startController(world, clusterOf(plane));
    try {
      await runUntilStarted(c, 3);
      const rssBeforeMb = await rssMb(standby);
      const leaderId = await holder();
      expect(leaderId).toBeTruthy();
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
      // The Lease expires at most LEASE_DURATION_MS after the leader's last renewal (before
      // the kill); the standby sees it at its next attempt, at most MAX_RETRY_WAIT_MS later.
      expect(takeoverMs).toBeLessThan(LEASE_DURATION_MS + MAX_RETRY_WAIT_MS);
      expectAllMigrated(result);
    } finally {
      await stopController(standby);
      await leader.stop().catch(() => undefined);
      leases.close();
    }
  }, 300_000);

  it('the source errors (share gone), hangs past a conversion, and is slow: the plan completes without a hot loop', async () => {
    const server = SERVERS[1] ?? '';
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
