//! Starts and stops a local control plane: etcd, kube-apiserver, then any components, on 127.0.0.1.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, join } from 'node:path';
import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import type { RunningComponent } from './components.js';
import { installCRDs } from './crds.js';
import { EnvtestError } from './errors/envtest-error.js';
import type { ProcessExitedError } from './errors/process-exited-error.js';
import { freePort } from './free-port.js';
import { type ApiServerFiles, apiServerFlags } from './internal/apiserver-flags.js';
import { toArgs } from './internal/component-flags.js';
import { startComponents } from './internal/component-process.js';
import { formatDuration } from './internal/format.js';
import { ProcessGuard } from './internal/guard.js';
import { etcdGateway, get } from './internal/http.js';
import {
  ADMIN_USER,
  type ControlPlanePki,
  createPki,
  issueUserCertificate,
  kubeconfigFor,
} from './internal/pki.js';
import { ManagedProcess } from './internal/process.js';
import { type Probe, retryOnOtherPort, waitReady } from './internal/readiness.js';
import {
  type ControlPlaneOptions,
  type ResolvedControlPlaneOptions,
  resolveControlPlaneOptions,
} from './options.js';
import { type ControlPlaneBinaries, resolveBinaries } from './resolve-binaries.js';

/** How long each phase of `startControlPlane` took, in ms. */
export interface StartupTimings {
  /** Finding (or building) the binaries. */
  readonly binariesMs: number;
  /** etcd start to `/health` ok. */
  readonly etcdMs: number;
  /** kube-apiserver start to `/readyz` ok. */
  readonly apiServerMs: number;
  /** The components' start (side by side) to each one's `/healthz` ok; 0 without components. */
  readonly componentsMs: number;
  /** The whole call. */
  readonly totalMs: number;
}

/** A kubeconfig for one identity of the control plane. */
export interface UserKubeConfig {
  readonly kubeConfig: KubeConfig;
  readonly kubeconfigPath: string;
}

/** A running etcd and kube-apiserver (and components), and the means to fault and stop them. */
export interface ControlPlane {
  /** An admin client configuration (user `ctrlkit-envtest-admin`, group `system:masters`). */
  readonly kubeConfig: KubeConfig;
  /** The same as a kubeconfig file, for kubectl and child processes. Removed by `stop()`. */
  readonly kubeconfigPath: string;
  /** `https://127.0.0.1:<port>`. */
  readonly server: string;
  readonly apiServerPort: number;
  /** etcd's client URL, `http://127.0.0.1:<port>`. */
  readonly etcdUrl: string;
  /** The temporary folder holding data, certificates and logs. Removed by `stop()`. */
  readonly directory: string;
  /**
   * kube-apiserver's audit log (JSON lines; read it with `readAuditLog`), written when the
   * `auditPolicy` option is set, kept across apiserver restarts; otherwise `undefined`.
   * Removed by `stop()`.
   */
  readonly auditLogPath: string | undefined;
  readonly binaries: ControlPlaneBinaries;
  /** The components started on request, in start order (empty without the `components` option). */
  readonly components: readonly RunningComponent[];
  readonly timings: StartupTimings;
  /**
   * Stops the components, kube-apiserver, then etcd, and removes the temporary folder. Idempotent.
   * Processes get `stopTimeoutMs` after SIGTERM, then SIGKILL.
   */
  stop(): Promise<void>;
  /** Fault hook: stops kube-apiserver only; etcd keeps the data. Clients see connection errors. */
  stopApiServer(): Promise<void>;
  /** Starts kube-apiserver again on the same port and waits for `/readyz`. */
  startApiServer(): Promise<void>;
  /** `stopApiServer()` then `startApiServer()`. */
  restartApiServer(): Promise<void>;
  /**
   * Fault hook: compacts etcd past every resource version handed out so far. A watch or
   * list from such a version then fails with 410 Gone when it reaches etcd: always with
   * `watchCache: false`; with the watch cache, only once the cache no longer holds that
   * version. Returns the etcd revision compacted to.
   */
  compactEtcd(): Promise<number>;
  /**
   * Issues a client certificate for `user` in `groups` and writes its kubeconfig. Such a
   * user has only what RBAC grants it (unless a group is `system:masters`).
   */
  addUser(user: string, groups?: readonly string[]): Promise<UserKubeConfig>;
}

/**
 * Starts etcd, then kube-apiserver, on 127.0.0.1 with free ports and a fresh temporary
 * folder, and resolves once `/readyz` answers ok; then starts the requested `components`
 * side by side and waits for each one's `/healthz`.
 *
 * kube-apiserver runs with a serving certificate from a CA of its own, client-certificate
 * authentication (the admin is in `system:masters`), a service-account signing key,
 * `--authorization-mode=Node,RBAC`, and, unless kube-controller-manager runs (which creates
 * each namespace's `default` service account), without the `ServiceAccount` admission plugin.
 * Each component runs as its own user with its own kubeconfig, as kubeadm sets it up (see
 * `componentFlags`).
 *
 * Guarantees: on failure nothing is left running and the folder is removed (the log of the
 * process that failed is kept beside it, see the error's `logPath`); processes and folder
 * are also removed when this process exits or is killed without `stop()`.
 *
 * Errors: `InvalidArgumentError`, `UnknownComponentError`, `BinariesMissingError`,
 * `BuildFailedError`, `PortInUseError`, `ProcessExitedError` (with the last lines of the
 * process's log), `NotReadyError` (after `startTimeoutMs`); each names the process and its
 * log file.
 */
export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const resolved = resolveControlPlaneOptions(options);
  const started = performance.now();
  const binaries = await resolveBinaries(options);
  const binariesMs = performance.now() - started;
  if (binaries.source === 'build') {
    resolved.logger.info(
      {},
      `binaries built in ${formatDuration(binaries.build?.buildMs ?? binariesMs)}`,
    );
  }
  const guard = new ProcessGuard();
  let directory: string | undefined;
  const plane = new LocalControlPlane(resolved, binaries, guard);
  try {
    await mkdir(resolved.tempDirectory, { recursive: true });
    directory = await mkdtemp(join(resolved.tempDirectory, 'ctrlkit-envtest-'));
    guard.trackDirectory(directory);
    await plane.start(directory, started, binariesMs);
    return plane;
  } catch (error) {
    await plane.stop();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    guard.release();
    throw error;
  }
}

class LocalControlPlane implements ControlPlane {
  readonly #options: ResolvedControlPlaneOptions;
  readonly #guard: ProcessGuard;
  readonly binaries: ControlPlaneBinaries;
  #pki!: ControlPlanePki;
  #etcd: ManagedProcess | undefined;
  #apiServer: ManagedProcess | undefined;
  readonly #componentProcesses: ManagedProcess[] = [];
  #apiServerArgs: string[] = [];
  #ready = false;
  #stopped = false;
  #stopping: Promise<void> | undefined;
  #unexpectedExitReported = false;
  #startingApiServer = false;
  components: readonly RunningComponent[] = [];
  kubeConfig!: KubeConfig;
  kubeconfigPath = '';
  server = '';
  apiServerPort = 0;
  etcdUrl = '';
  directory = '';
  auditLogPath: string | undefined;
  timings: StartupTimings = {
    binariesMs: 0,
    etcdMs: 0,
    apiServerMs: 0,
    componentsMs: 0,
    totalMs: 0,
  };

  constructor(
    options: ResolvedControlPlaneOptions,
    binaries: ControlPlaneBinaries,
    guard: ProcessGuard,
  ) {
    this.#options = options;
    this.binaries = binaries;
    this.#guard = guard;
  }

  async start(directory: string, started: number, binariesMs: number): Promise<void> {
    this.directory = directory;
    this.#pki = await createPki();
    const files = await this.#writeFiles(directory);

    const etcdStarted = performance.now();
    await this.#startEtcd(directory);
    const etcdMs = performance.now() - etcdStarted;

    const apiStarted = performance.now();
    await this.#startApiServerOnFreePort(directory, files);
    const apiServerMs = performance.now() - apiStarted;

    await this.#writeKubeconfig(directory);
    if (this.#options.crds.length > 0) await installCRDs(this.kubeConfig, this.#options.crds);

    const componentsStarted = performance.now();
    await this.#startComponents(directory, files);
    const componentsMs = this.components.length > 0 ? performance.now() - componentsStarted : 0;
    this.timings = {
      binariesMs,
      etcdMs,
      apiServerMs,
      componentsMs,
      totalMs: performance.now() - started,
    };
    this.#ready = true;
    this.#logReady();
  }

  /** Writes the PKI (and the audit policy, when asked for) under `directory`: the apiserver's files. */
  async #writeFiles(directory: string): Promise<ApiServerFiles> {
    const certs = join(directory, 'certs');
    await mkdir(certs);
    const files: ApiServerFiles = {
      ca: join(certs, 'ca.crt'),
      caKey: join(certs, 'ca.key'),
      servingCert: join(certs, 'apiserver.crt'),
      servingKey: join(certs, 'apiserver.key'),
      saPublic: join(certs, 'sa.pub'),
      saPrivate: join(certs, 'sa.key'),
    };
    await Promise.all([
      writeFile(files.ca, this.#pki.ca.certPem),
      writeFile(files.caKey, this.#pki.ca.keyPem, { mode: 0o600 }),
      writeFile(files.servingCert, this.#pki.serving.certPem),
      writeFile(files.servingKey, this.#pki.serving.keyPem, { mode: 0o600 }),
      writeFile(files.saPublic, this.#pki.serviceAccountPublicKeyPem),
      writeFile(files.saPrivate, this.#pki.serviceAccountPrivateKeyPem, { mode: 0o600 }),
    ]);

    if (this.#options.auditPolicy !== undefined) {
      const policyPath = join(directory, 'audit-policy.json');
      await writeFile(policyPath, JSON.stringify(this.#options.auditPolicy));
      this.auditLogPath = join(directory, 'audit.log');
      files.audit = { policyPath, logPath: this.auditLogPath };
    }
    return files;
  }

  /** Starts kube-apiserver on the asked-for port, or on a free one, again on another when it was taken. */
  async #startApiServerOnFreePort(directory: string, files: ApiServerFiles): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.apiServerPort = this.#options.apiServerPort ?? (await freePort());
      this.server = `https://127.0.0.1:${this.apiServerPort}`;
      this.#apiServerArgs = apiServerFlags(this.#options, {
        etcdUrl: this.etcdUrl,
        port: this.apiServerPort,
        files,
        certDir: join(directory, 'apiserver-certs'),
      });
      try {
        await this.startApiServer();
        return;
      } catch (error) {
        if (!(await retryOnOtherPort(error, attempt, this.#options.apiServerPort))) throw error;
        this.#options.logger.debug(
          {},
          `kube-apiserver port ${this.apiServerPort} was taken; trying another`,
        );
      }
    }
  }

  /** Writes the admin kubeconfig to `directory` and loads it as {@link LocalControlPlane.kubeConfig}. */
  async #writeKubeconfig(directory: string): Promise<void> {
    this.kubeconfigPath = join(directory, 'kubeconfig');
    const kubeconfig = kubeconfigFor(
      this.server,
      this.#pki.ca.certPem,
      ADMIN_USER,
      this.#pki.admin,
    );
    await writeFile(this.kubeconfigPath, kubeconfig, { mode: 0o600 });
    this.kubeConfig = new KubeConfig();
    this.kubeConfig.loadFromString(kubeconfig);
  }

  /** Starts the components asked for (scheduler, controller manager), each tracked for stop. */
  async #startComponents(directory: string, files: ApiServerFiles): Promise<void> {
    this.components = await startComponents({
      directory,
      server: this.server,
      ca: this.#pki.ca,
      files,
      binaries: this.binaries.components,
      options: this.#options,
      spawn: (...args) => {
        const process = this.#spawn(...args);
        this.#componentProcesses.push(process);
        return process;
      },
      waitReady: (...args) => this.#waitReady(...args),
    });
  }

  /** Logs where the control plane is and how long each part took to start. */
  #logReady(): void {
    const { etcdMs, apiServerMs, componentsMs, totalMs } = this.timings;
    const parts = [
      `etcd ${formatDuration(etcdMs)}`,
      `kube-apiserver ${formatDuration(apiServerMs)}`,
    ];
    if (componentsMs > 0) {
      parts.push(
        `${this.components.map((c) => c.name).join(', ')} ${formatDuration(componentsMs)}`,
      );
    }
    this.#options.logger.info(
      {},
      `control plane ready at ${this.server} in ${formatDuration(totalMs)} (${parts.join(', ')})`,
    );
  }

  async #startEtcd(directory: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const [clientPort, peerPort] = [await freePort(), await freePort()];
      this.etcdUrl = `http://127.0.0.1:${clientPort}`;
      const peerUrl = `http://127.0.0.1:${peerPort}`;
      const defaults: Record<string, string | readonly string[]> = {
        name: 'envtest',
        'data-dir': join(directory, 'etcd'),
        'listen-client-urls': this.etcdUrl,
        'advertise-client-urls': this.etcdUrl,
        'listen-peer-urls': peerUrl,
        'initial-advertise-peer-urls': peerUrl,
        'initial-cluster': `envtest=${peerUrl}`,
        'unsafe-no-fsync': 'true',
        'log-level': 'warn',
      };
      const args = toArgs({ ...defaults, ...this.#options.etcdFlags });
      const etcd = this.#spawn('etcd', this.binaries.etcd, args, join(directory, 'etcd.log'));
      this.#etcd = etcd;
      try {
        await this.#waitReady(etcd, clientPort, 'etcd /health', () => this.#etcdHealth());
        return;
      } catch (error) {
        await etcd.stop(0);
        if (!(await retryOnOtherPort(error, attempt))) throw error;
        this.#options.logger.debug(
          {},
          `etcd port ${clientPort} or ${peerPort} was taken; trying others`,
        );
      }
    }
  }

  async startApiServer(): Promise<void> {
    if (this.#stopped) throw new EnvtestError('NotReady', 'the control plane was stopped');
    if (this.#apiServer?.running) return;
    const apiServer = this.#spawn(
      'kube-apiserver',
      this.binaries.kubeApiServer,
      this.#apiServerArgs,
      join(this.directory, 'kube-apiserver.log'),
    );
    this.#apiServer = apiServer;
    this.#startingApiServer = true;
    try {
      await this.#waitReady(apiServer, this.apiServerPort, 'kube-apiserver /readyz', () =>
        this.#apiServerReadyz(),
      );
    } catch (error) {
      await apiServer.stop(0);
      throw error;
    } finally {
      this.#startingApiServer = false;
    }
  }

  async stopApiServer(): Promise<void> {
    await this.#apiServer?.stop(this.#options.stopTimeoutMs);
  }

  async restartApiServer(): Promise<void> {
    await this.stopApiServer();
    await this.startApiServer();
  }

  async compactEtcd(): Promise<number> {
    // Two writes to a key outside /registry move the revision past every resource version
    // handed out so far; compacting to the second makes all of those expire (a watch from
    // the newest of them would otherwise start exactly at the compacted revision).
    const key = Buffer.from('/ctrlkit-envtest/compaction-marker').toString('base64');
    let revision = Number.NaN;
    for (const value of ['1', '2']) {
      const put = await etcdGateway(this.etcdUrl, '/v3/kv/put', {
        key,
        value: Buffer.from(value).toString('base64'),
      });
      revision = Number((put.header as { revision?: string } | undefined)?.revision);
    }
    if (!Number.isSafeInteger(revision))
      throw new EnvtestError('NotReady', 'etcd did not report its revision');
    await etcdGateway(this.etcdUrl, '/v3/kv/compaction', {
      revision: String(revision),
      physical: true,
    });
    return revision;
  }

  async addUser(user: string, groups: readonly string[] = []): Promise<UserKubeConfig> {
    if (typeof user !== 'string' || user === '')
      throw new InvalidArgumentError('user', 'must be a non-empty string');
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string' && g !== '')) {
      throw new InvalidArgumentError('groups', 'must be an array of non-empty strings');
    }
    const certificate = await issueUserCertificate(this.#pki.ca, user, groups);
    const kubeconfig = kubeconfigFor(this.server, this.#pki.ca.certPem, user, certificate);
    const kubeconfigPath = join(
      this.directory,
      `kubeconfig-${user.replace(/[^A-Za-z0-9_.-]/g, '_')}`,
    );
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(kubeconfig);
    return { kubeConfig, kubeconfigPath };
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    this.#stopped = true;
    const timeout = this.#options.stopTimeoutMs;
    await Promise.all(this.#componentProcesses.map((p) => p.stop(timeout)));
    await this.#apiServer?.stop(timeout);
    await this.#etcd?.stop(timeout);
    if (this.directory !== '') {
      await rm(this.directory, { recursive: true, force: true, maxRetries: 3 });
      this.#guard.forgetDirectory(this.directory);
      this.#guard.release();
    }
  }

  #spawn(name: string, binary: string, args: readonly string[], logPath: string): ManagedProcess {
    return new ManagedProcess(name, binary, args, logPath, this.#guard, (error) =>
      this.#unexpectedExit(error),
    );
  }

  #unexpectedExit(error: ProcessExitedError): void {
    // Exits during start are reported by start itself.
    if (this.#stopped || !this.#ready || this.#startingApiServer || this.#unexpectedExitReported) {
      return;
    }
    this.#unexpectedExitReported = true;
    if (this.#options.onUnexpectedExit) this.#options.onUnexpectedExit(error);
    else this.#options.logger.warn({}, error.message);
  }

  /** `waitReady` with this plane's start timeout, keeping a failed process's log beside the folder. */
  #waitReady(process: ManagedProcess, port: number, what: string, probe: Probe): Promise<void> {
    const keptLogPath = join(
      this.#options.tempDirectory,
      `${basename(this.directory)}-${process.name}.log`,
    );
    return waitReady(process, port, what, probe, {
      timeoutMs: this.#options.startTimeoutMs,
      keptLogPath,
    });
  }

  async #etcdHealth(): Promise<string | undefined> {
    const response = await get(httpRequest, `${this.etcdUrl}/health`, {});
    if (response.status === 200 && response.body.includes('"true"')) return undefined;
    return response.problem ?? `HTTP ${response.status}: ${response.body.slice(0, 200)}`;
  }

  async #apiServerReadyz(): Promise<string | undefined> {
    const response = await get(httpsRequest, `${this.server}/readyz`, {
      ca: this.#pki.ca.certPem,
      cert: this.#pki.admin.certPem,
      key: this.#pki.admin.keyPem,
    });
    if (response.status === 200) return undefined;
    return response.problem ?? `HTTP ${response.status}: ${response.body.slice(0, 500)}`;
  }
}
