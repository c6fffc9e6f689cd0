// The virtual kubelet (mock provider) as its deploy/ ServiceAccount, given 200 pods, under each
// fault: every pod ends Running (0 lost), the app deletes or creates no pod (0 duplicates),
// and its request rate stays within its client's budget.

import { setTimeout as sleep } from 'node:timers/promises';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { type ControlPlane, createTestNamespace } from '@ctrlkit/envtest';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditMark,
  clusterOf,
  conflicts,
  perMinute,
  proxiedCluster,
  requestsSince,
  startFaultPlane,
} from './harness.js';
import { recordResult } from './results.js';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);
const PODS = 200;
/** The quiet period after convergence in which the request rate is measured. */
const AFTER_MS = 5_000;

let plane: ControlPlane;
let core: CoreV1Api;
let nextPort = 20_250;

beforeAll(async () => {
  plane = await startFaultPlane();
  core = plane.kubeConfig.makeApiClient(CoreV1Api);
});
afterAll(async () => {
  await plane?.stop();
});

function startVirtualKubelet(nodeName: string, cluster: AppCluster): Promise<AppProcess> {
  return startApp(app, {
    cluster,
    args: [
      '--nodename',
      nodeName,
      '--metrics-addr',
      '0',
      '--healthz-addr',
      '0',
      '--internal-ip',
      '10.9.8.7',
      '--listen-port',
      String(nextPort++),
    ],
  });
}

/** Creates pods `from`..`to - 1` bound to `nodeName`, retrying while the apiserver is away. */
async function createPods(namespace: string, nodeName: string, from: number, to: number) {
  const pod = (i: number): V1Pod => ({
    metadata: { name: `p-${i}` },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
  });
  for (let i = from; i < to; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, to - i) }, async (_, k) => {
        for (;;) {
          try {
            await core.createNamespacedPod({ namespace, body: pod(i + k) });
            return;
          } catch (error) {
            if ((error as { code?: number }).code === 409) return;
            await sleep(200);
          }
        }
      }),
    );
  }
}

async function runningPods(namespace: string): Promise<number> {
  try {
    const pods = (await core.listNamespacedPod({ namespace })).items;
    return pods.filter((p) => p.status?.phase === 'Running').length;
  } catch {
    return -1;
  }
}

/** Waits for every pod Running, then measures and records the case; returns the result. */
async function converge(options: {
  fault: string;
  namespace: string;
  username: string;
  mark: number;
  faultStartedAt: number;
  faultEndedAt: number;
  timeoutMs?: number;
}) {
  const { namespace } = options;
  await waitFor(`${PODS} pods Running`, () => runningPods(namespace), {
    until: (n) => n === PODS,
    timeoutMs: options.timeoutMs ?? 120_000,
    intervalMs: 250,
  }).catch(() => undefined);
  const convergedAt = Date.now();
  const reconciled = await runningPods(namespace);
  await sleep(AFTER_MS);
  const requests = await requestsSince(plane, options.username, options.mark);
  const podWrites = requests.filter(
    (e) =>
      e.objectRef?.resource === 'pods' &&
      e.objectRef.subresource === undefined &&
      (e.verb === 'create' || e.verb === 'delete'),
  ).length;
  const result = {
    app: 'virtual-kubelet',
    fault: options.fault,
    queued: PODS,
    reconciled,
    duplicates: podWrites,
    convergeMs: convergedAt - options.faultEndedAt,
    requestsPerMinDuring: perMinute(requests, options.faultStartedAt, convergedAt),
    requestsPerMinAfter: perMinute(requests, convergedAt + 1, convergedAt + AFTER_MS),
    conflicts: conflicts(requests),
  };
  await recordResult(result);
  return result;
}

async function nodeReady(nodeName: string): Promise<void> {
  await waitFor(
    `the Node ${nodeName}`,
    async () => {
      try {
        return (await core.readNode({ name: nodeName })).metadata?.name === nodeName;
      } catch {
        return false;
      }
    },
    { timeoutMs: 60_000 },
  );
}

/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
const RBAC_SYNC_MS = 10_000;

/** Stops `app`; a refusal (403) is accepted only before `untilMs` (epoch ms). */
async function expectOnlyTransientForbidden(app: AppProcess, mark: number, untilMs: number) {
  const code = await app.stop().catch((error: unknown) => {
    if (!/refused \d+ request/.test(String(error))) throw error;
    return 0;
  });
  expect(code).toBe(0);
  const late = (await requestsSince(plane, app.rbac.username, mark)).filter(
    (e) => e.responseStatus?.code === 403 && Date.parse(e.requestReceivedTimestamp) > untilMs,
  );
  expect(late.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
}

describe('virtual-kubelet under faults', () => {
  it('kube-apiserver killed and restarted 3 times mid-run', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-restart-');
    const nodeName = 'vk-restart';
    const vk = await startVirtualKubelet(nodeName, clusterOf(plane));
    let restartedAt = Number.POSITIVE_INFINITY;
    const mark = await auditMark(plane);
    try {
      await nodeReady(nodeName);
      const faultStartedAt = Date.now();
      for (let round = 0; round < 3; round++) {
        await createPods(namespace, nodeName, round * 50, round * 50 + 50);
        await plane.restartApiServer();
      }
      const faultEndedAt = Date.now();
      restartedAt = faultEndedAt;
      await createPods(namespace, nodeName, 150, PODS);
      const result = await converge({
        fault: 'apiserver restarted 3x',
        namespace,
        username: vk.rbac.username,
        mark,
        faultStartedAt,
        faultEndedAt,
      });
      expect(result.reconciled).toBe(PODS);
      expect(result.duplicates).toBe(0);
    } finally {
      // A restarted apiserver answers 403 for a moment, until its RBAC authorizer has synced:
      // accepted right after a restart, not once the app has converged.
      await expectOnlyTransientForbidden(vk, mark, restartedAt + RBAC_SYNC_MS);
    }
  });

  it('half-open connection (a proxy that stops forwarding without closing)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-half-open-');
    const nodeName = 'vk-half-open';
    const { proxy, cluster } = await proxiedCluster(plane);
    const vk = await startVirtualKubelet(nodeName, cluster);
    try {
      await nodeReady(nodeName);
      await createPods(namespace, nodeName, 0, PODS / 2);
      await waitFor('the first pods Running', () => runningPods(namespace), {
        until: (n) => n === PODS / 2,
        timeoutMs: 60_000,
      });
      const mark = await auditMark(plane);
      const faultStartedAt = Date.now();
      expect(proxy.freeze()).toBeGreaterThan(0);
      await createPods(namespace, nodeName, PODS / 2, PODS);
      const result = await converge({
        fault: 'half-open connection',
        namespace,
        username: vk.rbac.username,
        mark,
        faultStartedAt,
        faultEndedAt: faultStartedAt,
      });
      expect(result.reconciled).toBe(PODS);
      expect(result.duplicates).toBe(0);
    } finally {
      expect(await vk.stop()).toBe(0);
      await proxy.close();
    }
  });

  it('SIGTERM mid-work, then a restart', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-sigterm-');
    const nodeName = 'vk-sigterm';
    const first = await startVirtualKubelet(nodeName, clusterOf(plane));
    await nodeReady(nodeName);
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    try {
      await createPods(namespace, nodeName, 0, PODS / 2);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      await first.stop();
    }
    await createPods(namespace, nodeName, PODS / 2, PODS);
    const second = await startVirtualKubelet(nodeName, clusterOf(plane));
    const faultEndedAt = Date.now();
    try {
      const result = await converge({
        fault: 'SIGTERM mid-work, restart',
        namespace,
        username: second.rbac.username,
        mark,
        faultStartedAt,
        faultEndedAt,
      });
      expect(result.reconciled).toBe(PODS);
      expect(result.duplicates).toBe(0);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('409 Conflict on status writes (a second writer changing the same pods)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-conflict-');
    const nodeName = 'vk-conflict';
    const vk = await startVirtualKubelet(nodeName, clusterOf(plane));
    try {
      await nodeReady(nodeName);
      const mark = await auditMark(plane);
      const faultStartedAt = Date.now();
      // The second writer relabels every pod again and again while the app writes their status.
      let writing = true;
      const writer = (async () => {
        for (let n = 0; writing; n++) {
          await Promise.all(
            Array.from({ length: 20 }, (_, k) =>
              core
                .patchNamespacedPod({
                  namespace,
                  name: `p-${(n * 20 + k) % PODS}`,
                  body: [{ op: 'add', path: '/metadata/labels', value: { writer: String(n) } }],
                })
                .catch(() => undefined),
            ),
          );
        }
      })();
      await createPods(namespace, nodeName, 0, PODS);
      await sleep(3_000);
      writing = false;
      await writer;
      const faultEndedAt = Date.now();
      const result = await converge({
        fault: '409 from a second writer',
        namespace,
        username: vk.rbac.username,
        mark,
        faultStartedAt,
        faultEndedAt,
      });
      expect(result.reconciled).toBe(PODS);
      expect(result.duplicates).toBe(0);
    } finally {
      expect(await vk.stop()).toBe(0);
    }
  });
});
