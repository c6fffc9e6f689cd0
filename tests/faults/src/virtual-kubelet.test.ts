// The virtual kubelet (mock provider) as its deploy/ ServiceAccount, given 200 pods, under each
// fault: every pod ends Running (0 lost), the app deletes or creates no pod and its provider
// starts no pod twice (0 duplicates), the fault hit work in flight, its request rate stays
// within its client's budget, its informers and /healthz are checked through the fault and
// healthy after, and its memory comes back.

import { waitFor } from '@ctrlkit/core/testing';
import { type ControlPlane, createTestNamespace } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollHealth } from './app-health.js';
import {
  auditMark,
  clusterOf,
  conflicts,
  proxiedCluster,
  requestsSince,
  rssMb,
  startFaultPlane,
  watchesSince,
} from './harness.js';
import { expectConverged, PODS, RBAC_SYNC_MS, VirtualKubeletWork } from './virtual-kubelet-work.js';

/** The longest a half-open connection may hold the app: its HTTP/2 ping (20 s idle + 15 s) and the work. */
const HALF_OPEN_BOUND_MS = 45_000;

let plane: ControlPlane;
let work: VirtualKubeletWork;

beforeAll(async () => {
  plane = await startFaultPlane();
  work = new VirtualKubeletWork(plane);
});
afterAll(async () => {
  work?.client.close();
  await plane?.stop();
});

describe('virtual-kubelet under faults', () => {
  it('kube-apiserver killed and restarted 3 times mid-run: its informers leave watching and come back, /healthz stays up', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-restart-');
    const nodeName = 'vk-restart';
    const vk = await work.start(nodeName, clusterOf(plane));
    let restartedAt = Number.POSITIVE_INFINITY;
    const mark = await auditMark(plane);
    try {
      await work.nodeReady(nodeName);
      const rssBeforeMb = await rssMb(vk);
      const faultStartedAt = Date.now();
      const health = pollHealth(() => vk.endpoints);
      let inFlightAtFault = 0;
      for (let round = 0; round < 3; round++) {
        await work.createPods(namespace, nodeName, round * 50, round * 50 + 50);
        // Each restart lands while the pods just given are being run.
        inFlightAtFault += round * 50 + 50 - Math.max(0, await work.runningPods(namespace));
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
        inFlightAtFault,
        health,
      });
      expectConverged(result);
      expect(
        result.inFlightAtFault,
        'pods not yet Running when the apiserver went',
      ).toBeGreaterThan(0);
      // Its informers saw the apiserver go (out of `watching`), while /healthz, which fails only
      // after 2 min without a watch, kept answering 200: no restart of the pod for a blip.
      expect(result.unwatchedMs).toBeGreaterThan(0);
      expect(result.healthzFailed?.startsWith('0/')).toBe(true);
    } finally {
      // A restarted apiserver answers 403 for a moment, until its RBAC authorizer has synced:
      // accepted right after a restart, not once the app has converged.
      await work.expectOnlyTransientForbidden(vk, mark, restartedAt + RBAC_SYNC_MS);
    }
  });

  it('half-open connection (a proxy that stops forwarding without closing): recovered within 45 s, healthy after', async () => {
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
      const health = pollHealth(() => vk.endpoints);
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
        inFlightAtFault: PODS / 2,
        health,
      });
      expectConverged(result);
      expect(result.convergeMs, 'from the freeze to every pod Running').toBeLessThanOrEqual(
        HALF_OPEN_BOUND_MS,
      );
      // The pods' watch was opened again, through a fresh connection, after the freeze.
      const rewatched = (await watchesSince(plane, vk.rbac.username, mark)).filter(
        (e) =>
          e.objectRef?.resource === 'pods' &&
          Date.parse(e.requestReceivedTimestamp) > faultStartedAt,
      );
      expect(rewatched.length).toBeGreaterThan(0);
      expect(result.healthzFailed?.startsWith('0/')).toBe(true);
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
    let inFlightAtFault = 0;
    try {
      await work.createPods(namespace, nodeName, 0, PODS / 2);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      inFlightAtFault = PODS / 2 - Math.max(0, await work.runningPods(namespace));
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
        inFlightAtFault,
      });
      expectConverged(result);
      expect(
        result.inFlightAtFault,
        'pods not Running when the first process stopped',
      ).toBeGreaterThan(0);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('409 Conflict on status writes (a second writer relabelling each batch of pods while the app writes their status)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-conflict-');
    const nodeName = 'vk-conflict';
    const vk = await work.start(nodeName, clusterOf(plane));
    try {
      await work.nodeReady(nodeName);
      const rssBeforeMb = await rssMb(vk);
      const mark = await auditMark(plane);
      const faultStartedAt = Date.now();
      // Every fifth batch of 20 pods is relabelled again and again from its creation, while the
      // app runs them and writes their status (a PUT with the version it saw): for 0.5 s, and
      // on until the app has been answered 409 at least once (at most 30 s: on a loaded
      // machine the first status writes can come after 0.5 s). Each 409 puts the pod back in
      // the status queue with its per-item backoff (as upstream); relabelling every batch, or
      // for long, grew some pods' backoff past the case's 120 s to converge.
      let conflicted = false;
      for (let from = 0, n = 0; from < PODS; from += 20) {
        await work.createPods(namespace, nodeName, from, from + 20);
        if ((from / 20) % 5 !== 0) continue;
        const started = Date.now();
        for (let lastLook = started; ; n++) {
          const now = Date.now();
          if (now - started >= 500 && (conflicted || now - started >= 30_000)) break;
          if (!conflicted && now - started >= 500 && now - lastLook >= 250) {
            lastLook = now;
            conflicted = conflicts(await requestsSince(plane, vk.rbac.username, mark)) > 0;
          }
          await Promise.all(
            Array.from({ length: 20 }, (_, k) =>
              work.client
                .patch(
                  'pods',
                  `p-${from + k}`,
                  { metadata: { labels: { writer: String(n) } } },
                  { namespace },
                )
                .catch(() => undefined),
            ),
          );
        }
      }
      const faultEndedAt = Date.now();
      const result = await work.converge({
        fault: '409 from a second writer',
        namespace,
        app: vk,
        // Converging takes the longest per-item backoff a pod's 409s grew (100 s seen).
        timeoutMs: 300_000,
        mark,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
      });
      expectConverged(result);
      // The fault happened: the app's writes were answered 409, and retried.
      expect(result.conflicts).toBeGreaterThanOrEqual(1);
    } finally {
      expect(await vk.stop()).toBe(0);
    }
  }, 420_000);
});
