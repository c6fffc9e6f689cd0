//! Options of the control plane and of binary resolution, their defaults and validation.

import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { type AuditPolicy, resolveAuditPolicy } from './audit.js';
import { type ComponentName, resolveComponents } from './components.js';
import { stderrLogger } from './logger.js';

/** How long `startControlPlane` waits for each process (etcd, kube-apiserver, components) to be ready: 60 s. */
export const DEFAULT_START_TIMEOUT_MS = 60_000;
/** How long a process gets to exit after SIGTERM before it is killed: 10 s. */
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;
/** kube-apiserver's own default `--etcd-compaction-interval`: 5 minutes. */
export const DEFAULT_ETCD_COMPACTION_INTERVAL_MS = 300_000;
/** Parallel compile jobs of `go build` (`-p`): 2, which fits a 2-core, 8 GB machine. */
export const DEFAULT_BUILD_JOBS = 2;

/**
 * controller-tools' envtest release index, the one setup-envtest reads, YAML of the shape
 * `releases: v<version>: envtest-v<version>-<os>-<arch>.tar.gz: { hash, selfLink }`
 * (`hash` the archive's SHA-512, `selfLink` its URL).
 */
export const DEFAULT_RELEASE_INDEX_URL =
  'https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml';

/**
 * Where Kubernetes publishes its release binaries, one file per binary with its SHA-512
 * beside it: `<url>/v<version>/bin/<os>/<arch>/<name>` and `<name>.sha512`. The components
 * (kube-scheduler, kube-controller-manager) are downloaded from here.
 */
export const DEFAULT_KUBERNETES_RELEASE_URL = 'https://dl.k8s.io/release';

/** Where to get `kube-apiserver`, `etcd` and the requested components, and whether to build them. */
export interface BinaryOptions {
  /**
   * The components to start (and so to find or build) beside etcd and kube-apiserver:
   * `kube-scheduler`, `kube-controller-manager` (see {@link COMPONENTS}). Default: none.
   * An unknown name throws `UnknownComponentError`.
   */
  components?: readonly ComponentName[];
  /**
   * A folder holding `kube-apiserver` and `etcd` (and each requested component). Default: the
   * `KUBEBUILDER_ASSETS` environment variable; when neither is set, the cache (then a build)
   * is used.
   */
  binaryAssetsDirectory?: string;
  /**
   * The cache root; binaries live in `<cacheDirectory>/v<kubernetes version>/`.
   * Default: `$XDG_CACHE_HOME/ctrlkit/envtest`, or `~/.cache/ctrlkit/envtest`.
   */
  cacheDirectory?: string;
  /**
   * Download what is neither in setup-envtest's store nor in the cache: kube-apiserver and
   * etcd from the envtest release index, the components from the Kubernetes release
   * binaries (`kubernetesReleaseUrl`). Default `true`, unless the environment variable
   * `CTRLKIT_ENVTEST_DOWNLOAD` is `false` (or `0`, `no`, `off`). Ignored when
   * `binaryAssetsDirectory` or `KUBEBUILDER_ASSETS` is set.
   */
  download?: boolean;
  /**
   * The envtest release index to download from. Default: the environment variable
   * `CTRLKIT_ENVTEST_RELEASE_INDEX`, else {@link DEFAULT_RELEASE_INDEX_URL}. Ignored when
   * `download` is off.
   */
  releaseIndexUrl?: string;
  /**
   * Where to download kube-scheduler and kube-controller-manager from
   * (`<url>/v<version>/bin/<os>/<arch>/<name>`, with `<name>.sha512` beside it). Default:
   * the environment variable `CTRLKIT_ENVTEST_KUBERNETES_RELEASE_URL`, else
   * {@link DEFAULT_KUBERNETES_RELEASE_URL}. Ignored when `download` is off.
   */
  kubernetesReleaseUrl?: string;
  /**
   * Build the binaries with Go when they are not in the cache (and could not be downloaded).
   * Default `true`. Ignored when `binaryAssetsDirectory` or `KUBEBUILDER_ASSETS` is set.
   */
  build?: boolean;
  /** `go build -p`: parallel compile jobs. Default {@link DEFAULT_BUILD_JOBS}. */
  buildJobs?: number;
  /** Progress of resolution, builds, start and stop. Default: `info`/`warn` to stderr. */
  logger?: Logger;
}

/** How to run the control plane. Every field is optional. */
export interface ControlPlaneOptions extends BinaryOptions {
  /**
   * Time each process (etcd, kube-apiserver, then each component) gets to become ready, in
   * ms. Default {@link DEFAULT_START_TIMEOUT_MS}.
   */
  startTimeoutMs?: number;
  /** Time each process gets after SIGTERM before SIGKILL, in ms. Default {@link DEFAULT_STOP_TIMEOUT_MS}. */
  stopTimeoutMs?: number;
  /**
   * The kube-apiserver's secure port on 127.0.0.1. Default: a free port. It is kept
   * across `stopApiServer()`/`startApiServer()` so that clients reconnect.
   */
  apiServerPort?: number;
  /**
   * kube-apiserver's `--etcd-compaction-interval`, in ms: how often it compacts etcd.
   * A resource version becomes unusable (a watch from it ends with 410 Gone) one to two
   * intervals after it was current. `0` turns compaction off. Default
   * {@link DEFAULT_ETCD_COMPACTION_INTERVAL_MS}; a test of watch expiry might use 2 000
   * together with `watchCache: false`. See also `ControlPlane.compactEtcd()`.
   */
  etcdCompactionIntervalMs?: number;
  /**
   * kube-apiserver's `--watch-cache`. Default `true`. With `false`, watches and lists are
   * served straight from etcd, so a compaction expires old resource versions at once.
   */
  watchCache?: boolean;
  /** Extra kube-apiserver flags (name without `--`), applied over the defaults. */
  apiServerFlags?: Readonly<Record<string, string | readonly string[]>>;
  /** Extra etcd flags (name without `--`), applied over the defaults. */
  etcdFlags?: Readonly<Record<string, string | readonly string[]>>;
  /** Extra kube-scheduler flags (name without `--`), applied over the defaults. Ignored unless it is in `components`. */
  schedulerFlags?: Readonly<Record<string, string | readonly string[]>>;
  /**
   * Extra kube-controller-manager flags (name without `--`), applied over the defaults.
   * Ignored unless it is in `components`.
   */
  controllerManagerFlags?: Readonly<Record<string, string | readonly string[]>>;
  /**
   * kube-controller-manager's `--node-monitor-grace-period`, in ms: how long a node may go
   * without a heartbeat (its Lease or status) before its Ready condition becomes `Unknown`
   * and it is tainted `node.kubernetes.io/unreachable`. Default: the controller-manager's own
   * (50 s). A test of node lifecycle might use 10 000 (together with
   * `controllerManagerFlags: { 'node-monitor-period': '1s' }`). Ignored unless
   * kube-controller-manager is in `components`.
   */
  nodeMonitorGracePeriodMs?: number;
  /**
   * kube-apiserver's audit policy (`audit.k8s.io/v1` `Policy`). With it, the apiserver writes
   * the events the policy selects as JSON lines to `ControlPlane.auditLogPath` (read them with
   * `readAuditLog`), e.g. every request of the service accounts:
   * `{ rules: [{ level: 'Metadata', userGroups: ['system:serviceaccounts'] }, { level: 'None' }] }`.
   * Default: no audit log.
   */
  auditPolicy?: AuditPolicy;
  /**
   * CRDs (objects, or YAML/JSON file paths) installed once kube-apiserver is ready and before
   * the components start, as `installCRDs` does. kube-controller-manager's garbage collector
   * watches the resources it finds at its start, and finds later ones only on its 30 s
   * discovery resync: a test of owner references on custom resources installs them here.
   * Default: none.
   */
  crds?: ReadonlyArray<V1CustomResourceDefinition | string>;
  /** Where the temporary data folder is created. Default: `os.tmpdir()`. */
  tempDirectory?: string;
  /**
   * Called once when etcd, kube-apiserver or a component exits while it should be running
   * (not after `stop()`/`stopApiServer()`). Default: the error is logged with `logger.warn`.
   */
  onUnexpectedExit?: (error: Error) => void;
}

/** `BinaryOptions` with every default applied. */
export interface ResolvedBinaryOptions {
  /** In start order, without duplicates. */
  readonly components: readonly ComponentName[];
  readonly binaryAssetsDirectory: string | undefined;
  readonly cacheDirectory: string;
  readonly download: boolean;
  readonly releaseIndexUrl: string;
  readonly kubernetesReleaseUrl: string;
  readonly build: boolean;
  readonly buildJobs: number;
  readonly logger: Logger;
}

/** `ControlPlaneOptions` with every default applied. */
export interface ResolvedControlPlaneOptions extends ResolvedBinaryOptions {
  readonly startTimeoutMs: number;
  readonly stopTimeoutMs: number;
  readonly apiServerPort: number | undefined;
  readonly etcdCompactionIntervalMs: number;
  readonly watchCache: boolean;
  readonly apiServerFlags: Readonly<Record<string, string | readonly string[]>>;
  readonly etcdFlags: Readonly<Record<string, string | readonly string[]>>;
  readonly schedulerFlags: Readonly<Record<string, string | readonly string[]>>;
  readonly controllerManagerFlags: Readonly<Record<string, string | readonly string[]>>;
  readonly nodeMonitorGracePeriodMs: number | undefined;
  readonly auditPolicy: AuditPolicy | undefined;
  readonly crds: ReadonlyArray<V1CustomResourceDefinition | string>;
  readonly tempDirectory: string;
  readonly onUnexpectedExit: ((error: Error) => void) | undefined;
}

/** The default cache root: `$XDG_CACHE_HOME/ctrlkit/envtest` or `~/.cache/ctrlkit/envtest`. */
export function defaultCacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'ctrlkit', 'envtest');
}

/**
 * Validates binary options and applies defaults; throws `InvalidArgumentError` naming the
 * field, or `UnknownComponentError` for an unknown entry of `components`.
 */
export function resolveBinaryOptions(
  options: BinaryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedBinaryOptions {
  expectObject('options', options);
  const assets = optionalString('binaryAssetsDirectory', options.binaryAssetsDirectory);
  return {
    components: resolveComponents(options.components),
    binaryAssetsDirectory: assets ?? (env.KUBEBUILDER_ASSETS || undefined),
    cacheDirectory:
      optionalString('cacheDirectory', options.cacheDirectory) ?? defaultCacheDirectory(env),
    download: optionalBoolean('download', options.download) ?? downloadFromEnv(env),
    releaseIndexUrl:
      optionalUrl('releaseIndexUrl', options.releaseIndexUrl) ??
      (env.CTRLKIT_ENVTEST_RELEASE_INDEX || DEFAULT_RELEASE_INDEX_URL),
    kubernetesReleaseUrl:
      optionalUrl('kubernetesReleaseUrl', options.kubernetesReleaseUrl) ??
      (env.CTRLKIT_ENVTEST_KUBERNETES_RELEASE_URL || DEFAULT_KUBERNETES_RELEASE_URL),
    build: optionalBoolean('build', options.build) ?? true,
    buildJobs: optionalInteger('buildJobs', options.buildJobs, 1, 256) ?? DEFAULT_BUILD_JOBS,
    logger: optionalLogger(options.logger) ?? stderrLogger,
  };
}

/**
 * Validates control plane options and applies defaults; throws `InvalidArgumentError` naming
 * the field, or `UnknownComponentError` for an unknown entry of `components`.
 */
export function resolveControlPlaneOptions(
  options: ControlPlaneOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedControlPlaneOptions {
  const binaries = resolveBinaryOptions(options, env);
  const onUnexpectedExit = options.onUnexpectedExit;
  if (onUnexpectedExit !== undefined && typeof onUnexpectedExit !== 'function') {
    throw new InvalidArgumentError(
      'onUnexpectedExit',
      `must be a function, got ${describe(onUnexpectedExit)}`,
    );
  }
  return {
    ...binaries,
    startTimeoutMs:
      optionalInteger('startTimeoutMs', options.startTimeoutMs, 1, 3_600_000) ??
      DEFAULT_START_TIMEOUT_MS,
    stopTimeoutMs:
      optionalInteger('stopTimeoutMs', options.stopTimeoutMs, 0, 600_000) ??
      DEFAULT_STOP_TIMEOUT_MS,
    apiServerPort: optionalInteger('apiServerPort', options.apiServerPort, 1, 65_535),
    etcdCompactionIntervalMs:
      optionalInteger(
        'etcdCompactionIntervalMs',
        options.etcdCompactionIntervalMs,
        0,
        86_400_000,
      ) ?? DEFAULT_ETCD_COMPACTION_INTERVAL_MS,
    watchCache: optionalBoolean('watchCache', options.watchCache) ?? true,
    apiServerFlags: optionalFlags('apiServerFlags', options.apiServerFlags),
    etcdFlags: optionalFlags('etcdFlags', options.etcdFlags),
    schedulerFlags: optionalFlags('schedulerFlags', options.schedulerFlags),
    controllerManagerFlags: optionalFlags('controllerManagerFlags', options.controllerManagerFlags),
    nodeMonitorGracePeriodMs: optionalInteger(
      'nodeMonitorGracePeriodMs',
      options.nodeMonitorGracePeriodMs,
      1_000,
      3_600_000,
    ),
    auditPolicy: resolveAuditPolicy(options.auditPolicy),
    crds: optionalArray('crds', options.crds),
    tempDirectory: optionalString('tempDirectory', options.tempDirectory) ?? tmpdir(),
    onUnexpectedExit,
  };
}

function expectObject(field: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, `must be an object, got ${describe(value)}`);
  }
}

function optionalString(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentError(field, `must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/** `CTRLKIT_ENVTEST_DOWNLOAD`: off for `false`, `0`, `no`, `off` (any case); on otherwise. */
function downloadFromEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env.CTRLKIT_ENVTEST_DOWNLOAD?.trim().toLowerCase();
  return !(value === 'false' || value === '0' || value === 'no' || value === 'off');
}

function optionalUrl(field: string, value: unknown): string | undefined {
  const url = optionalString(field, value);
  if (url === undefined) return undefined;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new InvalidArgumentError(field, `must be an http(s) URL, got ${describe(url)}`);
  }
  return url;
}

function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean')
    throw new InvalidArgumentError(field, `must be a boolean, got ${describe(value)}`);
  return value;
}

function optionalInteger(
  field: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      field,
      `must be an integer from ${min} to ${max}, got ${describe(value)}`,
    );
  }
  return value;
}

function optionalArray<T>(field: string, value: readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new InvalidArgumentError(field, `must be an array, got ${describe(value)}`);
  return value;
}

function optionalFlags(
  field: string,
  value: unknown,
): Readonly<Record<string, string | readonly string[]>> {
  if (value === undefined) return {};
  expectObject(field, value);
  for (const [name, flag] of Object.entries(value as Record<string, unknown>)) {
    if (name.startsWith('-') || name === '') {
      throw new InvalidArgumentError(
        `${field}.${name}`,
        'flag names are given without leading dashes',
      );
    }
    const values = Array.isArray(flag) ? flag : [flag];
    if (!values.every((v) => typeof v === 'string')) {
      throw new InvalidArgumentError(
        `${field}.${name}`,
        `must be a string or an array of strings, got ${describe(flag)}`,
      );
    }
  }
  return value as Readonly<Record<string, string | readonly string[]>>;
}

function optionalLogger(value: unknown): Logger | undefined {
  if (value === undefined) return undefined;
  const logger = value as Partial<Logger> | null;
  for (const method of ['debug', 'info', 'warn', 'error'] as const) {
    if (typeof logger?.[method] !== 'function') {
      throw new InvalidArgumentError(
        'logger',
        `must have ${method}(context, message), got ${describe(value)}`,
      );
    }
  }
  return value as Logger;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return String(value);
}
