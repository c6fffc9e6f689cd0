// The virtual kubelet (mock provider) as its deploy/ ServiceAccount, given 200 pods, under each
// fault: every pod ends Running (0 lost), the app deletes or creates no pod (0 duplicates),
// its request rate stays within its client's budget, and its memory comes back.

import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@ctrlkit/core/testing';
import { type ControlPlane, createTestNamespace } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMark, clusterOf, proxiedCluster, rssMb, startFaultPlane } from './harness.js';
import { expectConverged, PODS, RBAC_SYNC_MS, VirtualKubeletWork } from './virtual-kubelet-work.js';

let plane: ControlPlane;
let work: VirtualKubeletWork;

beforeAll(async () => {
  plane = await startFaultPlane();
  work = new VirtualKubeletWork(plane);
});
afterAll(async () => {
  await plane?.stop();
});

describe('virtual-kubelet under faults', () => {
  it('kube-apiserver killed and restarted 3 times mid-run', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-restart-');
    const nodeName = 'vk-restart';
    const vk = await work.start(nodeName, clusterOf(plane));
    let restartedAt = Number.POSITIVE_INFINITY;
    const mark = await auditMark(plane);
    try {
      await work.nodeReady(nodeName);
      const rssBeforeMb = await rssMb(vk);
      const faultStartedAt = Date.now();
      for (let round = 0; round < 3; round++) {
        await work.createPods(namespace, nodeName, round * 50, round * 50 + 50);
        await plane.restartApiServer();
      }
      const faultEndedAt = Date.now();
      restartedAt = faultEndedAt;
      await work.createPods(namespace, nodeName, 150, PODS);
      const result = await work.converge({
        fault: 'apiserver restarted 3x',
        namespace,
        app: vk,
        mark,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
      });
      expectConverged(result);
    } finally {
      // A restarted apiserver answers 403 for a moment, until its RBAC authorizer has synced:
      // accepted right after a restart, not once the app has converged.
      await work.expectOnlyTransientForbidden(vk, mark, restartedAt + RBAC_SYNC_MS);
    }
  });

  it('half-open connection (a proxy that stops forwarding without closing)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-half-open-');
    const nodeName = 'vk-half-open';
    const { proxy, cluster } = await proxiedCluster(plane);
    const vk = await work.start(nodeName, cluster);
    try {
      await work.nodeReady(nodeName);
      await work.createPods(namespace, nodeName, 0, PODS / 2);
      await waitFor('the first pods Running', () => work.runningPods(namespace), {
        until: (n) => n === PODS / 2,
        timeoutMs: 60_000,
      });
      const rssBeforeMb = await rssMb(vk);
      const mark = await auditMark(plane);
      const faultStartedAt = Date.now();
      expect(proxy.freeze()).toBeGreaterThan(0);
      await work.createPods(namespace, nodeName, PODS / 2, PODS);
      const result = await work.converge({
        fault: 'half-open connection',
        namespace,
        app: vk,
        mark,
        faultStartedAt,
        faultEndedAt: faultStartedAt,
        rssBeforeMb,
      });
      expectConverged(result);
    } finally {
      expect(await vk.stop()).toBe(0);
      await proxy.close();
    }
  });

  it('SIGTERM mid-work, then a restart', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-sigterm-');
    const nodeName = 'vk-sigterm';
    const first = await work.start(nodeName, clusterOf(plane));
    await work.nodeReady(nodeName);
    // Before: the first process; after: the second (a restart starts from nothing).
    const rssBeforeMb = await rssMb(first);
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    try {
      await work.createPods(namespace, nodeName, 0, PODS / 2);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      await first.stop();
    }
    await work.createPods(namespace, nodeName, PODS / 2, PODS);
    const second = await work.start(nodeName, clusterOf(plane));
    const faultEndedAt = Date.now();
    try {
      const result = await work.converge({
        fault: 'SIGTERM mid-work, restart',
        namespace,
        app: second,
        mark,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
      });
      expectConverged(result);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('409 Conflict on status writes (a second writer changing the same pods)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-conflict-');
    const nodeName = 'vk-conflict';
    const vk = await work.start(nodeName, clusterOf(plane));
    try {
      await work.nodeReady(nodeName);
      const rssBeforeMb = await rssMb(vk);
      const mark = await auditMark(plane);
      const faultStartedAt = Date.now();
      // The second writer relabels every pod again and again while the app writes their status.
      let writing = true;
      const writer = (async () => {
        for (let n = 0; writing; n++) {
          await Promise.all(
            Array.from({ length: 20 }, (_, k) =>
              work.core
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
      await work.createPods(namespace, nodeName, 0, PODS);
      await sleep(3_000);
      writing = false;
      await writer;
      const faultEndedAt = Date.now();
      const result = await work.converge({
        fault: '409 from a second writer',
        namespace,
        app: vk,
        mark,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
      });
      expectConverged(result);
    } finally {
      expect(await vk.stop()).toBe(0);
    }
  });
});
