//! The virtual kubelet's work under a fault: its process, 200 pods bound to its node, and the measurement of one case.

import { setTimeout as sleep } from 'node:timers/promises';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { statusCode } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { type AuditEvent, type ControlPlane, freePort } from '@ctrlkit/envtest';
import { type Client, createClient, type Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { expect } from 'vitest';
import {
  type AppEndpoints,
  describeSample,
  freeEndpoints,
  healthFigures,
  healthy,
  healthyAfter,
  type pollHealth,
} from './app-health.js';
import { AFTER_MS, expectBoundedMemory, requestFigures, requestsSince, rssMb } from './harness.js';
import { type FaultResult, recordResult } from './results.js';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);
/** Pods given to the app in each case. */
export const PODS = 200;
/** The app's client budget (`--kube-api-qps` default 50), in requests per minute. */
export const VK_BUDGET_PER_MIN = 50 * 60;
/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
export const RBAC_SYNC_MS = 10_000;

/** A running virtual kubelet and where it serves `/metrics` and `/healthz`. */
export type VkProcess = AppProcess & { readonly endpoints: AppEndpoints };

/** The test's client: unthrottled enough to give 200 pods at once. */
export const testClient = (plane: ControlPlane): Client =>
  createClient(plane.kubeConfig, { qps: 1_000, burst: 1_000 });

/** The virtual kubelet's work on `plane`, with the helpers of its cases. */
export class VirtualKubeletWork {
  readonly client: Client;

  constructor(readonly plane: ControlPlane) {
    this.client = testClient(plane);
  }

  /**
   * Starts the app (mock provider) as node `nodeName`, with `extra` flags, serving `/metrics`
   * and `/healthz` on free loopback ports.
   */
  async start(
    nodeName: string,
    cluster: AppCluster,
    extra: readonly string[] = [],
  ): Promise<VkProcess> {
    const endpoints = await freeEndpoints();
    const started = await startApp(app, {
      cluster,
      args: [
        '--nodename',
        nodeName,
        '--metrics-addr',
        endpoints.metrics,
        '--healthz-addr',
        endpoints.healthz,
        '--internal-ip',
        '10.9.8.7',
        '--listen-port',
        String(await freePort()),
        ...extra,
      ],
    });
    return Object.assign(started, { endpoints });
  }

  /** Creates pods `from`..`to - 1` bound to `nodeName`, retrying while the apiserver is away. */
  async createPods(namespace: string, nodeName: string, from: number, to: number): Promise<void> {
    const pod = (i: number): Wire<V1Pod> => ({
      metadata: { name: `p-${i}` },
      spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    });
    for (let i = from; i < to; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, to - i) }, async (_, k) => {
          for (;;) {
            try {
              await this.client.create('pods', pod(i + k), { namespace });
              return;
            } catch (error) {
              if (statusCode(error) === 409) return;
              await sleep(200);
            }
          }
        }),
      );
    }
  }

  /** The pods of `namespace` (empty while the apiserver is away). */
  async pods(namespace: string): Promise<Wire<V1Pod>[]> {
    try {
      return (await this.client.list<V1Pod>('pods', { namespace })).items;
    } catch {
      return [];
    }
  }

  /** The pods of `namespace` Running (-1 while the apiserver is away). */
  async runningPods(namespace: string): Promise<number> {
    try {
      const pods = (await this.client.list<V1Pod>('pods', { namespace })).items;
      return pods.filter((p) => p.status?.phase === 'Running').length;
    } catch {
      return -1;
    }
  }

  async nodeReady(nodeName: string): Promise<void> {
    await waitFor(
      `the Node ${nodeName}`,
      async () => {
        try {
          return (await this.client.get('nodes', nodeName)).metadata?.name === nodeName;
        } catch {
          return false;
        }
      },
      { timeoutMs: 60_000 },
    );
  }

  /**
   * Waits for every pod Running, then the quiet period, then measures and records the case
   * (the memory of `app` now against `rssBeforeMb`; the health polled through the fault, and
   * healthy after); returns the result.
   */
  async converge(options: {
    fault: string;
    namespace: string;
    app: VkProcess;
    mark: number;
    faultStartedAt: number;
    faultEndedAt: number;
    rssBeforeMb: number;
    timeoutMs?: number;
    /** Pods given but not Running when the fault hit (restart, SIGTERM). */
    inFlightAtFault?: number;
    /** `/healthz` and the informers polled from the fault's start; stopped at convergence. */
    health?: ReturnType<typeof pollHealth>;
    /** What else the case counts, from the app's requests (its 429s, its expired watches). */
    annotate?: (
      requests: AuditEvent[],
    ) => Pick<FaultResult, 'expired' | 'throttled' | 'retryAfterMarginMs'>;
  }): Promise<FaultResult> {
    const { namespace } = options;
    await waitFor(`${PODS} pods Running`, () => this.runningPods(namespace), {
      until: (n) => n === PODS,
      timeoutMs: options.timeoutMs ?? 120_000,
      intervalMs: 250,
    }).catch(() => undefined);
    const convergedAt = Date.now();
    const samples = await options.health?.stop();
    const pods = await this.pods(namespace);
    const reconciled = pods.filter((p) => p.status?.phase === 'Running').length;
    await sleep(AFTER_MS);
    const after = await healthyAfter(options.app.endpoints);
    expect(healthy(after), `after ${options.fault}: ${describeSample(after)}`).toBe(true);
    const rssAfterMb = await rssMb(options.app);
    const requests = await requestsSince(this.plane, options.app.rbac.username, options.mark);
    const podWrites = requests.filter(
      (e) =>
        e.objectRef?.resource === 'pods' &&
        e.objectRef.subresource === undefined &&
        (e.verb === 'create' || e.verb === 'delete'),
    ).length;
    const creates = providerCreates(pods);
    const result: FaultResult = {
      app: 'virtual-kubelet',
      fault: options.fault,
      queued: PODS,
      reconciled,
      // The pods the app created or deleted, and the pods whose containers the provider started twice.
      duplicates: podWrites + creates.startedTwice,
      convergeMs: convergedAt - options.faultEndedAt,
      ...requestFigures(requests, options.faultStartedAt, convergedAt),
      ...(options.inFlightAtFault !== undefined && { inFlightAtFault: options.inFlightAtFault }),
      createsPerPodMax: creates.max,
      ...(samples !== undefined && healthFigures(samples)),
      rssBeforeMb: options.rssBeforeMb,
      rssAfterMb,
      ...options.annotate?.(requests),
    };
    await recordResult(result);
    return result;
  }

  /** Stops `vk`; a refusal (403) is accepted only before `untilMs` (epoch ms). */
  async expectOnlyTransientForbidden(vk: AppProcess, mark: number, untilMs: number): Promise<void> {
    const code = await vk.stop().catch((error: unknown) => {
      if (!/refused \d+ request/.test(String(error))) throw error;
      return 0;
    });
    expect(code).toBe(0);
    const late = (await requestsSince(this.plane, vk.rbac.username, mark)).filter(
      (e) => e.responseStatus?.code === 403 && Date.parse(e.requestReceivedTimestamp) > untilMs,
    );
    expect(late.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  }
}

/**
 * The mock provider's creates per pod, from its containers' status: `containerID` names the
 * createPod call (`…/create-<n>`) that started them, `restartCount` the starts before it.
 */
export function providerCreates(pods: readonly Wire<V1Pod>[]): {
  max: number;
  startedTwice: number;
} {
  let max = 0;
  let startedTwice = 0;
  for (const pod of pods) {
    const statuses = pod.status?.containerStatuses ?? [];
    for (const c of statuses) {
      const n = Number(/\/create-(\d+)$/.exec(c.containerID ?? '')?.[1] ?? 0);
      max = Math.max(max, n);
    }
    if (statuses.some((c) => (c.restartCount ?? 0) > 0)) startedTwice++;
  }
  return { max, startedTwice };
}

/** The assertions every case makes: 0 lost, 0 duplicates, memory that came back. */
export function expectConverged(result: FaultResult): void {
  expect(result.reconciled).toBe(PODS);
  expect(result.duplicates).toBe(0);
  // Every pod's containers were started by a createPod call the status names.
  expect(result.createsPerPodMax).toBeGreaterThanOrEqual(1);
  expectBoundedMemory(result);
}
