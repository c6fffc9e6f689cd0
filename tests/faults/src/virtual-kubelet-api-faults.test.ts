// The virtual kubelet (mock provider) as its deploy/ ServiceAccount, given 200 pods, under the
// apiserver's own refusals: a watch expired by etcd compaction (410 Gone) and API Priority and
// Fairness configured tight for its ServiceAccount (429 with Retry-After). Every pod ends
// Running (0 lost), no pod is created or deleted by the app (0 duplicates), the fault is seen
// to have happened, and the request rate stays within the app's client budget.

import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@ctrlkit/core/testing';
import { type ControlPlane, createTestNamespace } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiFaultPlane, throttle } from './flow-control.js';
import {
  answered,
  auditMark,
  clusterOf,
  expiredWatchLogs,
  requestsSince,
  restartOverCompactedEtcd,
  rssMb,
} from './harness.js';
import { RETRY_AFTER_TOLERANCE_MS, RecordingProxy } from './recording-proxy.js';
import {
  expectConverged,
  PODS,
  RBAC_SYNC_MS,
  VirtualKubeletWork,
  VK_BUDGET_PER_MIN,
} from './virtual-kubelet-work.js';

let plane: ControlPlane;
let work: VirtualKubeletWork;

beforeAll(async () => {
  plane = await startApiFaultPlane();
  work = new VirtualKubeletWork(plane);
});
afterAll(async () => {
  work?.client.close();
  await plane?.stop();
});

describe('virtual-kubelet under the apiserver refusing its requests', () => {
  it('410 Gone: its watches resumed from versions etcd compacted (apiserver restarted mid-work, watch cache on)', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-gone-');
    const nodeName = 'vk-gone';
    const vk = await work.start(nodeName, clusterOf(plane));
    const mark = await auditMark(plane);
    let faultEndedAt = Number.POSITIVE_INFINITY;
    try {
      await work.nodeReady(nodeName);
      const rssBeforeMb = await rssMb(vk);
      const faultStartedAt = Date.now();
      await work.createPods(namespace, nodeName, 0, PODS / 2);
      // Mid-work, while the first pods are being run: a new apiserver over an etcd compacted
      // past every version the app has seen answers its watches 410 Gone.
      await restartOverCompactedEtcd(plane, vk, { group: '', resource: 'pods', verb: 'watch' });
      faultEndedAt = Date.now();
      await work.createPods(namespace, nodeName, PODS / 2, PODS);
      const result = await work.converge({
        fault: '410 Gone (compacted)',
        namespace,
        app: vk,
        mark,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
        annotate: () => ({ expired: expiredWatchLogs(vk.logs).length }),
      });
      expectConverged(result);
      // The fault happened: the app's informers were told their versions expired, and relisted.
      expect(result.expired, vk.logs.slice(-10).join('\n')).toBeGreaterThan(0);
      expect(result.requestsPerMinAfter).toBeLessThanOrEqual(VK_BUDGET_PER_MIN);
    } finally {
      await work.expectOnlyTransientForbidden(vk, mark, faultEndedAt + RBAC_SYNC_MS);
    }
  });

  it('429 from API Priority and Fairness (one seat, no queue, for its ServiceAccount): honours Retry-After, converges once relaxed', async () => {
    const namespace = await createTestNamespace(plane.kubeConfig, 'vk-apf-');
    const nodeName = 'vk-apf';
    // Through a proxy that records each answer's Retry-After and when the app sent again.
    const recorder = await RecordingProxy.start(plane);
    const vk = await work.start(nodeName, recorder.cluster);
    try {
      await work.nodeReady(nodeName);
      const rssBeforeMb = await rssMb(vk);
      const mark = await auditMark(plane);
      const faultStartedAt = Date.now();
      const tight = await throttle(plane, vk.rbac, 'ctrlkit-faults-vk', 1);
      let relaxed = false;
      try {
        await work.createPods(namespace, nodeName, 0, PODS);
        await waitFor(
          '429s answered to the app',
          async () => answered(await requestsSince(plane, vk.rbac.username, mark), 429),
          { until: (n) => n >= 10, timeoutMs: 30_000, intervalMs: 500 },
        );
        // Held a while longer: what the app does while refused is the point.
        await sleep(5_000);
        await tight.relax();
        relaxed = true;
      } finally {
        if (!relaxed) await tight.relax();
      }
      const faultEndedAt = Date.now();
      const result = await work.converge({
        fault: '429 from API Priority and Fairness',
        namespace,
        app: vk,
        mark,
        faultStartedAt,
        faultEndedAt,
        rssBeforeMb,
        annotate: (requests) => ({
          throttled: answered(requests, 429),
          retryAfterMarginMs: Math.min(...recorder.retryAfterMargins()),
        }),
      });
      expectConverged(result);
      expect(result.throttled).toBeGreaterThan(0);
      // Each 429 sent again no sooner than its Retry-After said (a small tolerance for timers).
      expect(recorder.retryAfterMargins().length).toBeGreaterThan(0);
      expect(result.retryAfterMarginMs).toBeGreaterThanOrEqual(-RETRY_AFTER_TOLERANCE_MS);
      // No hot loop: refused requests wait the server's Retry-After, within the client's budget.
      expect(result.requestsPerMinDuring).toBeLessThanOrEqual(VK_BUDGET_PER_MIN);
      expect(result.requestsPerMinAfter).toBeLessThanOrEqual(VK_BUDGET_PER_MIN);
    } finally {
      expect(await vk.stop()).toBe(0);
      await recorder.close();
    }
  });
});
