// The DRA example driver as its deploy/ ServiceAccount, publishing a 10-GPU pool that changes,
// under each fault: every device ends published (0 lost), in no more slices than the pool needs
// (0 duplicates), and its request rate stays low once converged.

import { setTimeout as sleep } from 'node:timers/promises';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import { CoreV1Api, ResourceV1Api, type V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditMark,
  clusterOf,
  conflicts,
  perMinute,
  proxiedCluster,
  requestsSince,
  startFaultPlane,
  watchesSince,
} from './harness.js';
import { recordResult } from './results.js';

const app = appPackage('@ctrlkit/dra-example-driver', import.meta.url);
const AFTER_MS = 5_000;
/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
const RBAC_SYNC_MS = 10_000;

let plane: ControlPlane;
let core: CoreV1Api;
let resource: ResourceV1Api;

beforeAll(async () => {
  plane = await startFaultPlane();
  core = plane.kubeConfig.makeApiClient(CoreV1Api);
  resource = plane.kubeConfig.makeApiClient(ResourceV1Api);
});
afterAll(async () => {
  await plane?.stop();
});

function startDriver(nodeName: string, cluster: AppCluster, flags: string[]): Promise<AppProcess> {
  return startApp(app, {
    cluster,
    args: [
      `--node-name=${nodeName}`,
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
      ...flags,
    ],
  });
}

async function slicesOf(nodeName: string): Promise<V1ResourceSlice[]> {
  try {
    return (
      await resource.listResourceSlice({
        fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
      })
    ).items;
  } catch {
    return [];
  }
}

const devicesOf = (slices: V1ResourceSlice[]) =>
  slices.flatMap((s) => s.spec.devices ?? []).map((d) => d.name);

async function newNode(prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 6)}`;
  await core.createNode({ body: { metadata: { name } } });
  return name;
}

/**
 * Waits for `devices` published in `slices` slices, then measures and records the case:
 * duplicates are slices beyond `slices`, plus creates beyond `expectedCreates`.
 */
async function converge(options: {
  fault: string;
  nodeName: string;
  username: string;
  mark: number;
  devices: number;
  slices: number;
  expectedCreates: number;
  faultStartedAt: number;
  faultEndedAt: number;
}) {
  const { nodeName } = options;
  const final = await waitFor(`${options.devices} devices published`, () => slicesOf(nodeName), {
    until: (s) => devicesOf(s).length === options.devices && s.length === options.slices,
    timeoutMs: 90_000,
    intervalMs: 250,
  }).catch(() => undefined);
  const convergedAt = Date.now();
  const slices = final ?? (await slicesOf(nodeName));
  await sleep(AFTER_MS);
  const requests = await requestsSince(plane, options.username, options.mark);
  const creates = requests.filter(
    (e) =>
      e.objectRef?.resource === 'resourceslices' &&
      e.verb === 'create' &&
      e.responseStatus?.code === 201,
  ).length;
  const result = {
    app: 'dra-example-driver',
    fault: options.fault,
    queued: options.devices,
    reconciled: new Set(devicesOf(slices)).size,
    duplicates:
      Math.max(0, slices.length - options.slices) + Math.max(0, creates - options.expectedCreates),
    convergeMs: convergedAt - options.faultEndedAt,
    requestsPerMinDuring: perMinute(requests, options.faultStartedAt, convergedAt),
    requestsPerMinAfter: perMinute(requests, convergedAt + 1, convergedAt + AFTER_MS),
    conflicts: conflicts(requests),
  };
  await recordResult(result);
  return result;
}

/** Stops `driver`; a refusal (403) is accepted only before `untilMs` (a restarted apiserver's RBAC syncing). */
async function stopDriver(driver: AppProcess, mark: number, untilMs = 0) {
  const code = await driver.stop().catch((error: unknown) => {
    if (untilMs === 0 || !/refused \d+ request/.test(String(error))) throw error;
    return 0;
  });
  expect(code, driver.logs.slice(-5).join('\n')).toBe(0);
  const late = (await requestsSince(plane, driver.rbac.username, mark)).filter(
    (e) => e.responseStatus?.code === 403 && Date.parse(e.requestReceivedTimestamp) > untilMs,
  );
  if (untilMs > 0) expect(late.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
}

describe('dra-example-driver under faults', () => {
  it('kube-apiserver killed and restarted 3 times while it publishes', async () => {
    const nodeName = await newNode('dra-restart');
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    const driver = await startDriver(nodeName, clusterOf(plane), ['--num-devices=10']);
    let restartedAt = Number.POSITIVE_INFINITY;
    try {
      for (let round = 0; round < 3; round++) {
        await plane.restartApiServer();
        await sleep(500);
      }
      restartedAt = Date.now();
      const result = await converge({
        fault: 'apiserver restarted 3x',
        nodeName,
        username: driver.rbac.username,
        mark,
        devices: 10,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt,
        faultEndedAt: restartedAt,
      });
      expect(result.reconciled).toBe(10);
      expect(result.duplicates).toBe(0);
    } finally {
      await stopDriver(driver, mark, restartedAt + RBAC_SYNC_MS);
    }
  });

  it('half-open connection (a proxy that stops forwarding without closing): its watch is resumed on a fresh connection', async () => {
    const nodeName = await newNode('dra-half-open');
    const { proxy, cluster } = await proxiedCluster(plane);
    const mark = await auditMark(plane);
    const driver = await startDriver(nodeName, cluster, ['--num-devices=10']);
    try {
      await waitFor('the pool published', () => slicesOf(nodeName), {
        until: (s) => devicesOf(s).length === 10,
        timeoutMs: 60_000,
      });
      await sleep(1_000);
      const frozenAt = Date.now();
      expect(proxy.freeze()).toBeGreaterThan(0);
      // The work here is the watch itself: a new WATCH of ResourceSlices reaches the apiserver
      // (through a fresh connection) once the driver noticed the half-open one.
      const rewatched = await waitFor(
        'a new watch',
        async () =>
          (await watchesSince(plane, driver.rbac.username, mark)).find(
            (e) =>
              e.objectRef?.resource === 'resourceslices' &&
              Date.parse(e.requestReceivedTimestamp) > frozenAt,
          ),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      const result = await converge({
        fault: 'half-open connection',
        nodeName,
        username: driver.rbac.username,
        mark,
        devices: 10,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt: frozenAt,
        faultEndedAt: frozenAt,
      });
      const detectedMs = Date.parse(rewatched?.requestReceivedTimestamp ?? '') - frozenAt;
      await recordResult({ ...result, fault: 'half-open connection', convergeMs: detectedMs });
      expect(detectedMs).toBeLessThan(45_000);
      expect(result.reconciled).toBe(10);
      expect(result.duplicates).toBe(0);
      expect(driver.logs.some((l) => l.includes('a half-open connection'))).toBe(true);
    } finally {
      await stopDriver(driver, mark);
      await proxy.close();
    }
  });

  it('SIGTERM mid-work, then a restart with the pool changed (2 partitions per GPU)', async () => {
    const nodeName = await newNode('dra-sigterm');
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    const first = await startDriver(nodeName, clusterOf(plane), ['--num-devices=10']);
    try {
      // Mid-work: once it starts publishing, before its slices are written.
      await waitFor('publishing', () => first.logs.some((l) => l.includes('publishing devices')), {
        intervalMs: 5,
      });
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      await stopDriver(first, mark);
    }
    const publishedBefore = (await slicesOf(nodeName)).length;
    const second = await startDriver(nodeName, clusterOf(plane), [
      '--num-devices=8',
      '--partitions=2',
    ]);
    const faultEndedAt = Date.now();
    try {
      // 8 GPUs (at most 8 counter sets), each whole and in 2 partitions: 24 devices, in a
      // devices slice and a counters slice.
      const result = await converge({
        fault: 'SIGTERM mid-work, restart',
        nodeName,
        username: second.rbac.username,
        mark,
        devices: 24,
        slices: 2,
        expectedCreates: 2 + publishedBefore,
        faultStartedAt,
        faultEndedAt,
      });
      expect(result.reconciled).toBe(24);
      expect(result.duplicates).toBe(0);
    } finally {
      await stopDriver(second, mark);
    }
  });

  it('409 Conflict on slice writes (a second writer changing the same slice)', async () => {
    const nodeName = await newNode('dra-conflict');
    const mark = await auditMark(plane);
    const first = await startDriver(nodeName, clusterOf(plane), ['--num-devices=10']);
    try {
      await waitFor('the pool published', () => slicesOf(nodeName), {
        until: (s) => devicesOf(s).length === 10,
        timeoutMs: 60_000,
      });
    } finally {
      await stopDriver(first, mark);
    }
    const faultStartedAt = Date.now();
    // The second writer relabels the slice again and again while the driver rewrites it.
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        for (const s of await slicesOf(nodeName)) {
          await resource
            .patchResourceSlice({
              name: s.metadata?.name ?? '',
              body: [{ op: 'add', path: '/metadata/labels', value: { writer: String(n) } }],
            })
            .catch(() => undefined);
        }
      }
    })();
    const second = await startDriver(nodeName, clusterOf(plane), ['--num-devices=12']);
    try {
      await sleep(3_000);
      writing = false;
      await writer;
      const faultEndedAt = Date.now();
      const result = await converge({
        fault: '409 from a second writer',
        nodeName,
        username: second.rbac.username,
        mark,
        devices: 12,
        slices: 1,
        expectedCreates: 1,
        faultStartedAt,
        faultEndedAt,
      });
      expect(result.reconciled).toBe(12);
      expect(result.duplicates).toBe(0);
    } finally {
      writing = false;
      await stopDriver(second, mark);
    }
  });
});
