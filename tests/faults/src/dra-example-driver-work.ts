//! The DRA example driver's work under a fault: its process, a node's GPU pool, and the measurement of one case.

import { setTimeout as sleep } from 'node:timers/promises';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import type { AuditEvent, ControlPlane } from '@ctrlkit/envtest';
import { type Client, createClient, type Wire } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';
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

const app = appPackage('@ctrlkit/dra-example-driver', import.meta.url);
/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
export const RBAC_SYNC_MS = 10_000;
/** The driver's client budget (its default `--kube-api-qps`, upstream's 5), in requests per minute. */
export const DRA_BUDGET_PER_MIN = 5 * 60;

/** ResourceSlices, for the one client. */
export const SLICES = 'resource.k8s.io/v1/resourceslices';

export const devicesOf = (slices: Wire<V1ResourceSlice>[]): string[] =>
  slices.flatMap((s) => s.spec?.devices ?? []).map((d) => d.name);

/** A running driver and where it serves `/metrics` and `/healthz`. */
export type DriverProcess = AppProcess & { readonly endpoints: AppEndpoints };

/** The DRA example driver's work on `plane`, with the helpers of its cases. */
export class DraDriverWork {
  readonly client: Client;

  constructor(readonly plane: ControlPlane) {
    this.client = createClient(plane.kubeConfig, { qps: 1_000, burst: 1_000 });
  }

  /** Starts the driver for `nodeName` with `flags`, serving `/metrics` and `/healthz` on free loopback ports. */
  async start(nodeName: string, cluster: AppCluster, flags: string[]): Promise<DriverProcess> {
    const endpoints = await freeEndpoints();
    const started = await startApp(app, {
      cluster,
      args: [
        `--node-name=${nodeName}`,
        `--metrics-bind-address=${endpoints.metrics}`,
        `--health-probe-bind-address=${endpoints.healthz}`,
        ...flags,
      ],
    });
    return Object.assign(started, { endpoints });
  }

  async slicesOf(nodeName: string): Promise<Wire<V1ResourceSlice>[]> {
    try {
      return (
        await this.client.list<V1ResourceSlice>(SLICES, {
          fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
        })
      ).items;
    } catch {
      return [];
    }
  }

  async newNode(prefix: string): Promise<string> {
    const name = `${prefix}-${Math.random().toString(36).slice(2, 6)}`;
    await this.client.create('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } });
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
    app: DriverProcess;
    mark: number;
    devices: number;
    slices: number;
    expectedCreates: number;
    faultStartedAt: number;
    faultEndedAt: number;
    rssBeforeMb: number;
    /** Devices not published when the fault hit (restart, SIGTERM). */
    inFlightAtFault?: number;
    /** `/healthz` and the informers polled from the fault's start; stopped at convergence. */
    health?: ReturnType<typeof pollHealth>;
    /** What else the case counts, from the app's requests (its 429s, its expired watches). */
    annotate?: (
      requests: AuditEvent[],
    ) => Pick<FaultResult, 'expired' | 'throttled' | 'retryAfterMarginMs'>;
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
    const samples = await options.health?.stop();
    const slices = final ?? (await this.slicesOf(nodeName));
    await sleep(AFTER_MS);
    // The driver's one informer (its ResourceSlices, made by @ctrlkit/dra-resourceslice's
    // controller) is tracked by its Manager: /healthz 200 and it is `watching` again.
    const after = await healthyAfter(options.app.endpoints);
    expect(healthy(after), `after ${options.fault}: ${describeSample(after)}`).toBe(true);
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
      ...(options.inFlightAtFault !== undefined && { inFlightAtFault: options.inFlightAtFault }),
      ...(samples !== undefined && healthFigures(samples)),
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
