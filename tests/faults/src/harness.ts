//! A control plane per file, with an audit log of the apps' requests, and a proxy that can half-open their connections.

import { readFile } from 'node:fs/promises';
import type { AppCluster, AppProcess } from '@ctrlkit/app-testing';
import { SERVICE_ACCOUNT_AUDIT_POLICY } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import {
  type AuditEvent,
  type ControlPlane,
  type ControlPlaneOptions,
  noopLogger,
  readAuditLog,
  startControlPlane,
} from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { FreezingProxy } from '@ctrlkit/runtime/testing';
import { KubeConfig, type V1SubjectAccessReview } from '@kubernetes/client-node';
import { expect } from 'vitest';
import type { FaultResult } from './results.js';

/**
 * A control plane of the file's own (its apiserver is restarted), auditing the apps' requests;
 * `options` over that (e.g. a short compaction interval).
 */
export function startFaultPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  return startControlPlane({
    logger: noopLogger,
    auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY,
    etcdFlags: { 'unsafe-no-fsync': 'true' },
    ...options,
  });
}

/** The plane as an app cluster for `startApp`. */
export function clusterOf(plane: ControlPlane): AppCluster {
  return { kubeConfig: plane.kubeConfig, auditLogPath: plane.auditLogPath };
}

/** A proxy in front of the plane's apiserver, and the plane as seen through it. */
export async function proxiedCluster(
  plane: ControlPlane,
): Promise<{ proxy: FreezingProxy; cluster: AppCluster }> {
  const proxy = new FreezingProxy(plane.apiServerPort);
  await proxy.listen();
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(plane.kubeConfig.exportConfig());
  const current = kubeConfig.getCurrentCluster();
  kubeConfig.clusters = kubeConfig.clusters.map((c) =>
    c.name === current?.name ? { ...c, server: `https://127.0.0.1:${proxy.port}` } : c,
  );
  return { proxy, cluster: { kubeConfig, auditLogPath: plane.auditLogPath } };
}

/** Where the audit log ends now: requests after this are read by {@link requestsSince}. */
export async function auditMark(plane: ControlPlane): Promise<number> {
  return (await readAuditLog(plane.auditLogPath ?? '')).nextOffset;
}

/** The completed requests of `username` logged after `mark`, one event per request. */
export async function requestsSince(
  plane: ControlPlane,
  username: string,
  mark: number,
): Promise<AuditEvent[]> {
  const { events } = await readAuditLog(plane.auditLogPath ?? '', mark);
  return events.filter((e) => e.user.username === username && e.stage === 'ResponseComplete');
}

/** The watches of `username` opened after `mark` (logged when the server starts answering). */
export async function watchesSince(
  plane: ControlPlane,
  username: string,
  mark: number,
): Promise<AuditEvent[]> {
  const { events } = await readAuditLog(plane.auditLogPath ?? '', mark);
  return events.filter(
    (e) => e.user.username === username && e.verb === 'watch' && e.stage === 'ResponseStarted',
  );
}

/** Requests per minute among `events` received in [`fromMs`, `toMs`] (epoch ms). */
export function perMinute(events: readonly AuditEvent[], fromMs: number, toMs: number): number {
  const n = events.filter((e) => {
    const at = Date.parse(e.requestReceivedTimestamp);
    return at >= fromMs && at <= toMs;
  }).length;
  return (n * 60_000) / Math.max(1, toMs - fromMs);
}

/** The quiet period after convergence whose request rate a row reports, in ms. */
export const AFTER_MS = 5_000;

/**
 * A row's request figures from the app's requests: per minute from the fault's start to
 * convergence, per minute in the {@link AFTER_MS} after, and the 409s.
 */
export function requestFigures(
  requests: readonly AuditEvent[],
  faultStartedAt: number,
  convergedAt: number,
): Pick<FaultResult, 'requestsPerMinDuring' | 'requestsPerMinAfter' | 'conflicts'> {
  return {
    requestsPerMinDuring: perMinute(requests, faultStartedAt, convergedAt),
    requestsPerMinAfter: perMinute(requests, convergedAt + 1, convergedAt + AFTER_MS),
    conflicts: conflicts(requests),
  };
}

/** How many of `events` were answered 409 Conflict. */
export function conflicts(events: readonly AuditEvent[]): number {
  return events.filter((e) => e.responseStatus?.code === 409).length;
}

/** The resident memory (VmRSS) of the app's process now, in MB (Linux `/proc`). */
export async function rssMb(app: AppProcess): Promise<number> {
  const status = await readFile(`/proc/${app.child.pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${app.child.pid}/status`);
  return Number(kb) / 1024;
}

/**
 * The app's memory came back: after convergence and the quiet period at most twice what it
 * was before the fault, plus 50 MB (V8 grows its heap lazily and returns it late, so a tighter
 * bound would be flaky; a leak per pod, slice or request over a case is far above this).
 */
export function expectBoundedMemory(result: FaultResult): void {
  const { rssBeforeMb, rssAfterMb } = result;
  expect(rssAfterMb, 'RSS after').toBeGreaterThan(0);
  expect(rssBeforeMb, 'RSS before').toBeGreaterThan(0);
  expect(rssAfterMb, 'RSS after').toBeLessThanOrEqual((rssBeforeMb ?? 0) * 2 + 50);
}

/** How many of `events` were answered `code`. */
export function answered(events: readonly AuditEvent[], code: number): number {
  return events.filter((e) => e.responseStatus?.code === code).length;
}

/**
 * The lines of an app's log in which an informer was told its resource version expired
 * (410 Gone, `@ctrlkit/runtime`'s reflector: "resource version expired; listing again", or
 * "resource version unavailable; …" when a relist from it was answered so).
 */
export function expiredWatchLogs(logs: readonly string[]): string[] {
  return logs.filter((l) => /resource version (expired|unavailable)/.test(l));
}

/**
 * The 410 Gone fault: `app` is paused (SIGSTOP) with its watches open and its work in flight;
 * the apiserver stops, etcd is compacted past every version handed out so far, a new apiserver
 * (with a new watch cache) starts; once its RBAC authorizer allows `app` to `verb` `resource`
 * again, `app` resumes (SIGCONT). Its first requests are then the watches from versions neither
 * the watch cache nor etcd has: answered 410 Gone. (Unpaused, an app may reach the new
 * apiserver in the moment it still refuses with 403 while its RBAC caches sync, and relist
 * after that refusal from a version the new watch cache serves: no 410.)
 */
export async function restartOverCompactedEtcd(
  plane: ControlPlane,
  app: AppProcess,
  allowed: { group: string; resource: string; verb: string },
): Promise<void> {
  app.child.kill('SIGSTOP');
  const client = createClient(plane.kubeConfig);
  try {
    await plane.stopApiServer();
    await plane.compactEtcd();
    await plane.startApiServer();
    await waitFor(
      `RBAC allowing ${app.rbac.username} to ${allowed.verb} ${allowed.resource}`,
      async () => {
        try {
          const review = await client.create<V1SubjectAccessReview>(
            'authorization.k8s.io/v1/subjectaccessreviews',
            {
              apiVersion: 'authorization.k8s.io/v1',
              kind: 'SubjectAccessReview',
              metadata: {},
              spec: { user: app.rbac.username, resourceAttributes: allowed },
            },
          );
          return review.status?.allowed === true;
        } catch {
          return false;
        }
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
  } finally {
    app.child.kill('SIGCONT');
    client.close();
  }
}
