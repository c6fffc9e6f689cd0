//! The DRA example driver's work under a fault: its process, a node's GPU pool, and the measurement of one case.

import { setTimeout as sleep } from 'node:timers/promises';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import type { AuditEvent, ControlPlane } from '@ctrlkit/envtest';
import { CoreV1Api, ResourceV1Api, type V1ResourceSlice } from '@kubernetes/client-node';
import { expect } from 'vitest';
import { AFTER_MS, expectBoundedMemory, requestFigures, requestsSince, rssMb } from './harness.js';
import { type FaultResult, recordResult } from './results.js';

const app = appPackage('@ctrlkit/dra-example-driver', import.meta.url);
/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
export const RBAC_SYNC_MS = 10_000;
/** The driver's client budget (the runtime's default 20 QPS), in requests per minute. */
export const DRA_BUDGET_PER_MIN = 20 * 60;

export const devicesOf = (slices: V1ResourceSlice[]): string[] =>
  slices.flatMap((s) => s.spec.devices ?? []).map((d) => d.name);

/** The DRA example driver's work on `plane`, with the helpers of its cases. */
export class DraDriverWork {
  readonly core: CoreV1Api;
  readonly resource: ResourceV1Api;

  constructor(readonly plane: ControlPlane) {
    this.core = plane.kubeConfig.makeApiClient(CoreV1Api);
    this.resource = plane.kubeConfig.makeApiClient(ResourceV1Api);
  }

  start(nodeName: string, cluster: AppCluster, flags: string[]): Promise<AppProcess> {
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

  async slicesOf(nodeName: string): Promise<V1ResourceSlice[]> {
    try {
      return (
        await this.resource.listResourceSlice({
          fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
        })
      ).items;
    } catch {
      return [];
    }
  }

  async newNode(prefix: string): Promise<string> {
    const name = `${prefix}-${Math.random().toString(36).slice(2, 6)}`;
    await this.core.createNode({ body: { metadata: { name } } });
    return name;
  }

  /**
   * Waits for `devices` published in `slices` slices, then the quiet period, then measures
   * and records the case (the memory of `app` now against `rssBeforeMb`): duplicates are
   * slices beyond `slices`, plus creates beyond `expectedCreates`.
   */
  async converge(options: {
    fault: string;
    nodeName: string;
    app: AppProcess;
    mark: number;
    devices: number;
    slices: number;
    expectedCreates: number;
    faultStartedAt: number;
    faultEndedAt: number;
    rssBeforeMb: number;
    /** What else the case counts, from the app's requests (its 429s, its expired watches). */
    annotate?: (requests: AuditEvent[]) => Pick<FaultResult, 'expired' | 'throttled'>;
    /** Requests of the ServiceAccount that are not the app's (another client with its token). */
    exclude?: (e: AuditEvent) => boolean;
  }): Promise<FaultResult> {
    const { nodeName } = options;
    const final = await waitFor(
      `${options.devices} devices published`,
      () => this.slicesOf(nodeName),
      {
        until: (s) => devicesOf(s).length === options.devices && s.length === options.slices,
        timeoutMs: 90_000,
        intervalMs: 250,
      },
    ).catch(() => undefined);
    const convergedAt = Date.now();
    const slices = final ?? (await this.slicesOf(nodeName));
    await sleep(AFTER_MS);
    const rssAfterMb = await rssMb(options.app);
    const exclude = options.exclude ?? (() => false);
    const requests = (
      await requestsSince(this.plane, options.app.rbac.username, options.mark)
    ).filter((e) => !exclude(e));
    const creates = requests.filter(
      (e) =>
        e.objectRef?.resource === 'resourceslices' &&
        e.verb === 'create' &&
        e.responseStatus?.code === 201,
    ).length;
    const result: FaultResult = {
      app: 'dra-example-driver',
      fault: options.fault,
      queued: options.devices,
      reconciled: new Set(devicesOf(slices)).size,
      duplicates:
        Math.max(0, slices.length - options.slices) +
        Math.max(0, creates - options.expectedCreates),
      convergeMs: convergedAt - options.faultEndedAt,
      ...requestFigures(requests, options.faultStartedAt, convergedAt),
      rssBeforeMb: options.rssBeforeMb,
      rssAfterMb,
      ...options.annotate?.(requests),
    };
    await recordResult(result);
    return result;
  }

  /** Stops `driver`; a refusal (403) is accepted only before `untilMs` (a restarted apiserver's RBAC syncing). */
  async stopDriver(driver: AppProcess, mark: number, untilMs = 0): Promise<void> {
    const code = await driver.stop().catch((error: unknown) => {
      if (untilMs === 0 || !/refused \d+ request/.test(String(error))) throw error;
      return 0;
    });
    expect(code, driver.logs.slice(-5).join('\n')).toBe(0);
    const late = (await requestsSince(this.plane, driver.rbac.username, mark)).filter(
      (e) => e.responseStatus?.code === 403 && Date.parse(e.requestReceivedTimestamp) > untilMs,
    );
    if (untilMs > 0) expect(late.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  }
}

/** The assertions every case makes: every device published once (0 lost, 0 duplicates), memory that came back. */
export function expectPublished(result: FaultResult, devices: number): void {
  expect(result.reconciled).toBe(devices);
  expect(result.duplicates).toBe(0);
  expectBoundedMemory(result);
}
