//! The virtual kubelet's work under a fault: its process, 200 pods bound to its node, and the measurement of one case.

import { setTimeout as sleep } from 'node:timers/promises';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { type AuditEvent, type ControlPlane, freePort } from '@ctrlkit/envtest';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { expect } from 'vitest';
import { AFTER_MS, expectBoundedMemory, requestFigures, requestsSince, rssMb } from './harness.js';
import { type FaultResult, recordResult } from './results.js';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);
/** Pods given to the app in each case. */
export const PODS = 200;
/** The app's client budget (`--kube-api-qps` default 50), in requests per minute. */
export const VK_BUDGET_PER_MIN = 50 * 60;
/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
export const RBAC_SYNC_MS = 10_000;

/** The virtual kubelet's work on `plane`, with the helpers of its cases. */
export class VirtualKubeletWork {
  readonly core: CoreV1Api;

  constructor(readonly plane: ControlPlane) {
    this.core = plane.kubeConfig.makeApiClient(CoreV1Api);
  }

  /** Starts the app (mock provider) as node `nodeName`, with `extra` flags. */
  async start(
    nodeName: string,
    cluster: AppCluster,
    extra: readonly string[] = [],
  ): Promise<AppProcess> {
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
        String(await freePort()),
        ...extra,
      ],
    });
  }

  /** Creates pods `from`..`to - 1` bound to `nodeName`, retrying while the apiserver is away. */
  async createPods(namespace: string, nodeName: string, from: number, to: number): Promise<void> {
    const pod = (i: number): V1Pod => ({
      metadata: { name: `p-${i}` },
      spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    });
    for (let i = from; i < to; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, to - i) }, async (_, k) => {
          for (;;) {
            try {
              await this.core.createNamespacedPod({ namespace, body: pod(i + k) });
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

  /** The pods of `namespace` (empty while the apiserver is away). */
  async pods(namespace: string): Promise<V1Pod[]> {
    try {
      return (await this.core.listNamespacedPod({ namespace })).items;
    } catch {
      return [];
    }
  }

  async runningPods(namespace: string): Promise<number> {
    try {
      const pods = (await this.core.listNamespacedPod({ namespace })).items;
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
          return (await this.core.readNode({ name: nodeName })).metadata?.name === nodeName;
        } catch {
          return false;
        }
      },
      { timeoutMs: 60_000 },
    );
  }

  /**
   * Waits for every pod Running, then the quiet period, then measures and records the case
   * (the memory of `app` now against `rssBeforeMb`); returns the result.
   */
  async converge(options: {
    fault: string;
    namespace: string;
    app: AppProcess;
    mark: number;
    faultStartedAt: number;
    faultEndedAt: number;
    rssBeforeMb: number;
    timeoutMs?: number;
    /** What else the case counts, from the app's requests (its 429s, its expired watches). */
    annotate?: (requests: AuditEvent[]) => Pick<FaultResult, 'expired' | 'throttled'>;
  }): Promise<FaultResult> {
    const { namespace } = options;
    await waitFor(`${PODS} pods Running`, () => this.runningPods(namespace), {
      until: (n) => n === PODS,
      timeoutMs: options.timeoutMs ?? 120_000,
      intervalMs: 250,
    }).catch(() => undefined);
    const convergedAt = Date.now();
    const reconciled = await this.runningPods(namespace);
    await sleep(AFTER_MS);
    const rssAfterMb = await rssMb(options.app);
    const requests = await requestsSince(this.plane, options.app.rbac.username, options.mark);
    const podWrites = requests.filter(
      (e) =>
        e.objectRef?.resource === 'pods' &&
        e.objectRef.subresource === undefined &&
        (e.verb === 'create' || e.verb === 'delete'),
    ).length;
    const result: FaultResult = {
      app: 'virtual-kubelet',
      fault: options.fault,
      queued: PODS,
      reconciled,
      duplicates: podWrites,
      convergeMs: convergedAt - options.faultEndedAt,
      ...requestFigures(requests, options.faultStartedAt, convergedAt),
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

/** The assertions every case makes: 0 lost, 0 duplicates, memory that came back. */
export function expectConverged(result: FaultResult): void {
  expect(result.reconciled).toBe(PODS);
  expect(result.duplicates).toBe(0);
  expectBoundedMemory(result);
}
