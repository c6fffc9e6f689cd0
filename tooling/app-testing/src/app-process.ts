// An app's built binary as a child process, logged in as its deploy/ ServiceAccount, its
// requests checked in the apiserver's audit log when it stops.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor } from '@ctrlkit/core/testing';
import { readAuditLog } from '@ctrlkit/envtest';
import { testAuditLogPath, testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { appEnding } from './app-ending.js';
import {
  type DeployRbac,
  deployRbac,
  deployServiceAccounts,
  type Permission,
  readManifests,
  type ServiceAccountRef,
  withoutPermission,
} from './deploy-rbac.js';
import { describeProblems, processProblems } from './least-privilege.js';
import { requestsOf } from './rbac-usage.js';
import { loginAsServiceAccount } from './service-account.js';
import { USAGE_DIR_ENV } from './usage-record.js';

/** An app package of the workspace: its bins and its deploy/ folder. */
export interface AppPackage {
  readonly name: string;
  /** Bin name → absolute path of the script. */
  readonly bins: Readonly<Record<string, string>>;
  readonly deployDir: string;
}

/** The control plane an app runs on: an admin kubeconfig and the apiserver's audit log. */
export interface AppCluster {
  readonly kubeConfig: KubeConfig;
  /** Required: without it a 403 could pass unseen (start the plane with `SERVICE_ACCOUNT_AUDIT_POLICY`). */
  readonly auditLogPath: string | undefined;
}

/** Options of {@link startApp}. */
export interface StartAppOptions {
  /** Flags after `--kubeconfig <the ServiceAccount's>`. */
  readonly args?: readonly string[];
  /** Which bin of the package. Default: its only one, else the one named like the package (or `…-<package>`). */
  readonly bin?: string;
  /** Default: this test run's control plane (`@ctrlkit/envtest/vitest`). */
  readonly cluster?: AppCluster;
  /**
   * The ServiceAccount it runs as, with the RBAC deploy/ binds to it (none, when deploy/ binds
   * none: then any request it makes fails `stop()`): a name of one of deploy/'s (the one its
   * Deployment names), or a reference to any, e.g. its namespace's `default` that a workload of
   * deploy/ runs as. Default: deploy/'s only one; when it defines several, the one named like the bin.
   */
  readonly serviceAccount?: string | ServiceAccountRef;
  /** Extra environment of the process. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The CA its kubeconfig trusts instead of the control plane's: another CA's certificate
   * (PEM), or `null` for none (the system's CAs). Default: the control plane's.
   */
  readonly certificateAuthority?: string | null;
  /**
   * A permission deploy/ grants that the ServiceAccount runs without (its rule split; see
   * `withoutPermission`). Its refused requests then make `stop()` throw, listing them.
   */
  readonly withoutPermission?: Permission;
}

/** A running app. */
export interface AppProcess {
  readonly child: ChildProcess;
  /** Its stdout and stderr, line by line. */
  readonly logs: string[];
  /** The exit code, or the signal that ended it. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** The ServiceAccount it runs as. */
  readonly rbac: DeployRbac;
  /** The ServiceAccount token in its kubeconfig (e.g. to check that no log line shows it). */
  readonly token: string;
  /**
   * SIGKILL unless it has exited, then the same check as `stop()` (throws on the same
   * problems). Once either has run, both return its outcome.
   */
  kill(): Promise<void>;
  /**
   * SIGTERM unless it has exited, waits for the exit, then reads the audit log: throws,
   * listing them, on a missing rule (a request refused with 403, or allowed by something
   * other than deploy/) or a wildcard rule; records the requests for the run's
   * least-privilege check; releases the ServiceAccount. Returns the exit code.
   */
  stop(): Promise<number | NodeJS.Signals | null>;
}

/**
 * The workspace package `name` as seen from `from` (a file or folder URL or path inside the
 * package that depends on it; default: the current folder).
 */
export function appPackage(name: string, from: string | URL = `${process.cwd()}/`): AppPackage {
  const base = typeof from === 'string' && !from.startsWith('file:') ? pathToFileURL(from) : from;
  const manifestPath = createRequire(base).resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const root = dirname(manifestPath);
  const bins =
    typeof manifest.bin === 'string'
      ? { [name.split('/').pop() ?? name]: manifest.bin }
      : (manifest.bin ?? {});
  return {
    name,
    bins: Object.fromEntries(Object.entries(bins).map(([bin, path]) => [bin, join(root, path)])),
    deployDir: join(root, 'deploy'),
  };
}

/**
 * The name and path of `app`'s bin `name`; without a name, its only bin, or the one named
 * for the app (`virtual-kubelet`, `ctrlkit-virtual-kubelet`). Throws naming the bins there are.
 */
function binPath(app: AppPackage, name: string | undefined): { name: string; path: string } {
  const binNames = Object.keys(app.bins);
  const short = app.name.split('/').pop() ?? app.name;
  const binName =
    name ??
    (binNames.length === 1
      ? binNames[0]
      : binNames.find((b) => b === short || b.endsWith(`-${short}`)));
  const bin = app.bins[binName ?? ''];
  if (bin === undefined)
    throw new Error(`${app.name} has no bin ${binName} (${binNames.join(', ')})`);
  return { name: binName ?? '', path: bin };
}

/**
 * Starts `app`'s bin as a child process with `--kubeconfig` of its deploy/ ServiceAccount
 * (bound to exactly deploy/'s RBAC, with a TokenRequest token) on `cluster`.
 */
export async function startApp(
  app: AppPackage,
  options: StartAppOptions = {},
): Promise<AppProcess> {
  const cluster = options.cluster ?? {
    kubeConfig: testKubeConfig(),
    auditLogPath: testAuditLogPath(),
  };
  const { auditLogPath } = cluster;
  if (auditLogPath === undefined) {
    throw new Error(
      `${app.name}: the control plane writes no audit log; start it with auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY`,
    );
  }
  const bin = binPath(app, options.bin);
  const manifests = await readManifests(app.deployDir);
  const serviceAccount =
    options.serviceAccount ?? (deployServiceAccounts(manifests).length > 1 ? bin.name : undefined);
  const shipped = deployRbac(manifests, serviceAccount);
  const rbac =
    options.withoutPermission === undefined
      ? shipped
      : withoutPermission(shipped, options.withoutPermission);
  const login = await loginAsServiceAccount(cluster.kubeConfig, rbac, {
    ...(options.certificateAuthority !== undefined && {
      certificateAuthority: options.certificateAuthority,
    }),
  });
  const { nextOffset: fromOffset } = await readAuditLog(auditLogPath);
  const logs: string[] = [];
  const child = spawn(
    process.execPath,
    [bin.path, '--kubeconfig', login.kubeconfigPath, ...(options.args ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  );
  const collect = (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  const ending = appEnding(child, exited, async () => {
    try {
      const requests = await requestsSince(cluster, auditLogPath, fromOffset, login.token, rbac);
      await recordUsage(rbac, requests);
      const problems = processProblems(rbac.grants, requests);
      if (problems.length > 0) {
        throw new Error(
          `${app.name} as ${rbac.username}: deploy/ is not least privilege:\n${describeProblems(problems)}`,
        );
      }
    } finally {
      await login.release();
    }
  });
  return { child, logs, exited, rbac, token: login.token, kill: ending.kill, stop: ending.stop };
}

/**
 * The ServiceAccount's requests in the audit log from `fromOffset` on. The app has exited; a
 * last request with its token (a SelfSubjectReview) marks the end: once its event is in the
 * log, so are those of every request the app made before.
 */
async function requestsSince(
  cluster: AppCluster,
  auditLogPath: string,
  fromOffset: number,
  token: string,
  rbac: DeployRbac,
) {
  const marker = await selfSubjectReview(cluster.kubeConfig, token);
  const events = await waitFor(
    `the audit event of ${rbac.username}'s last request`,
    async () => (await readAuditLog(auditLogPath, fromOffset)).events,
    { until: (read) => read.some((e) => e.auditID === marker), timeoutMs: 10_000 },
  );
  return requestsOf(events, rbac.username).filter((r) => r.auditID !== marker);
}

/** Sends a SelfSubjectReview with `token`; returns its audit ID (the `Audit-Id` header). */
function selfSubjectReview(kubeConfig: KubeConfig, token: string): Promise<string> {
  const cluster = kubeConfig.getCurrentCluster();
  const ca = Buffer.from(cluster?.caData ?? '', 'base64');
  const body = JSON.stringify({
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
  });
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster?.server}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      {
        method: 'POST',
        ca,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        const id = res.headers['audit-id'];
        if (res.statusCode !== 201 || typeof id !== 'string') {
          reject(new Error(`SelfSubjectReview answered ${res.statusCode} without an Audit-Id`));
        } else resolve(id);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let recorded = 0;

/** Writes the requests to the run's usage folder (when the run has one) for its unused-rule check. */
async function recordUsage(rbac: DeployRbac, requests: unknown[]): Promise<void> {
  const dir = process.env[USAGE_DIR_ENV];
  if (!dir) return;
  const file = `${rbac.serviceAccount.namespace}.${rbac.serviceAccount.name}.${process.pid}.${recorded++}.json`;
  await writeFile(join(dir, file), JSON.stringify({ username: rbac.username, requests }));
}
