// The virtual kubelet as its deploy/ ServiceAccount, given 200 pods, with a mock provider that
// misbehaves: creations that fail, creations that hang past --provider-timeout, and a slow
// provider. Every pod ends Running (0 lost), no pod is created or deleted by the app and the
// provider starts no pod's containers twice (0 duplicates; the mock's containerID names the
// createPod call that started them, so a failed or abandoned call retried shows as creates
// per pod > 1), the failures show as Warning events with their reason, the request rate stays
// within the app's client budget (no hot loop on a failing provider), and memory comes back.

import { type ControlPlane, createTestNamespace } from '@ctrlkit/envtest';
import type { Wire } from '@ctrlkit/runtime/client';
import type { CoreV1Event } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMark, clusterOf, rssMb, startFaultPlane } from './harness.js';
import type { FaultResult } from './results.js';
import {
  expectConverged,
  PODS,
  VirtualKubeletWork,
  VK_BUDGET_PER_MIN,
} from './virtual-kubelet-work.js';

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

/** The Warning events about the namespace's pods with `reason`. */
async function warnings(namespace: string, reason: string): Promise<Wire<CoreV1Event>[]> {
  const events = (await work.client.list<CoreV1Event>('events', { namespace })).items;
  return events.filter((e) => e.type === 'Warning' && e.reason === reason);
}

/** Runs 200 pods on a virtual kubelet started with `flags`; the fault is the provider itself. */
async function runPods(
  fault: string,
  prefix: string,
  flags: string[],
): Promise<{ result: FaultResult; namespace: string; totalMs: number }> {
  const namespace = await createTestNamespace(plane.kubeConfig, `${prefix}-`);
  const nodeName = prefix;
  const vk = await work.start(nodeName, clusterOf(plane), flags);
  try {
    await work.nodeReady(nodeName);
    const rssBeforeMb = await rssMb(vk);
    const mark = await auditMark(plane);
    const faultStartedAt = Date.now();
    await work.createPods(namespace, nodeName, 0, PODS);
    // The provider misbehaves throughout: convergence is timed from the last pod given.
    const faultEndedAt = Date.now();
    const result = await work.converge({
      fault,
      namespace,
      app: vk,
      mark,
      faultStartedAt,
      faultEndedAt,
      rssBeforeMb,
    });
    expectConverged(result);
    // No hot loop: failing pods are retried with the queue's backoff, within the client's budget.
    expect(result.requestsPerMinDuring).toBeLessThanOrEqual(VK_BUDGET_PER_MIN);
    expect(result.requestsPerMinAfter).toBeLessThanOrEqual(VK_BUDGET_PER_MIN);
    return { result, namespace, totalMs: faultEndedAt - faultStartedAt + result.convergeMs };
  } finally {
    expect(await vk.stop()).toBe(0);
  }
}

describe('virtual-kubelet with a misbehaving provider', () => {
  it('a provider that errors (half of the creations fail): each failure is a ProviderCreateFailed event, the pod is retried', async () => {
    const { namespace, result } = await runPods(
      'provider errors (50% of creates)',
      'vk-provider-errors',
      ['--mock-create-failure-rate', '0.5'],
    );
    const failed = await warnings(namespace, 'ProviderCreateFailed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.message).toBe('mock provider: injected create failure');
    // Pods were created again after a failed call, and started once.
    expect(result.createsPerPodMax).toBeGreaterThanOrEqual(2);
  });

  it('a provider that hangs past --provider-timeout (a fifth of the creations): abandoned, ProviderCreateFailed, retried', async () => {
    const { namespace, result } = await runPods(
      'provider hangs (20% of creates, 1 s timeout)',
      'vk-provider-hangs',
      ['--mock-hang-rate', '0.2', '--provider-timeout', '1s'],
    );
    const failed = await warnings(namespace, 'ProviderCreateFailed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.message).toBe('provider createPod did not return within 1000 ms');
    // A hung call abandoned and the pod created again: its containers started once (the
    // mock's hung call returns only when aborted, starting nothing; `expectConverged` counts
    // a pod started twice as a duplicate).
    expect(result.createsPerPodMax).toBeGreaterThanOrEqual(2);
  });

  it('a slow provider (500 ms per creation): every pod still runs', async () => {
    const { totalMs } = await runPods('slow provider (500 ms per create)', 'vk-provider-slow', [
      '--mock-start-latency',
      '500ms',
    ]);
    // 200 creations of 500 ms on 10 workers take at least 10 s: the provider was slow.
    expect(totalMs).toBeGreaterThanOrEqual((PODS / 10) * 500);
  });
});
