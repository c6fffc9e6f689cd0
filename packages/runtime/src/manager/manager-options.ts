//! The options of a Manager, their defaults, and their checks at construction.

import type { ContentType, KubeConfigLike, ProgramInfo } from '@ctrlkit/client';
import type { Clock, Logger } from '@ctrlkit/core';
import { InvalidArgumentError, rejectRenamedOptions } from '@ctrlkit/core';
import type { SharedInformerFactoryOptions } from '../informers/shared-informer-factory.js';
import type { WebhookServer } from '../webhook/webhook-server.js';

/** Where `/metrics` is served by default: every interface, port 8080 (controller-runtime's). */
export const DEFAULT_METRICS_BIND_ADDRESS = ':8080';
/** Where `/healthz` and `/readyz` are served by default: every interface, port 8081 (kubebuilder's). */
export const DEFAULT_HEALTH_PROBE_BIND_ADDRESS = ':8081';
/** How long a stop waits for runnables by default: 30 s, as controller-runtime. */
export const DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS = 30_000;
/**
 * How long past its lease a leader that has not renewed still counts as healthy in the
 * `leaderElection` healthz check: 20 s, what kube-controller-manager gives client-go's
 * `HealthzAdaptor`.
 */
export const DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS = 20_000;
/**
 * How long an informer may go without an open watch before the `informers` check of
 * `/healthz` fails, so that Kubernetes restarts a controller left blind: 2 min (four
 * times the reflector's 30 s backoff cap, so an apiserver restart does not fail it).
 */
export const DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS = 120_000;

/** Leader election of a {@link Manager} (controller-runtime's `LeaderElection*` options). */
export interface ManagerLeaderElectionOptions {
  /** The Lease's name (controller-runtime's `LeaderElectionID`). Required. */
  leaseName: string;
  /**
   * The Lease's namespace. Default: the namespace of the pod's service account
   * (`/var/run/secrets/kubernetes.io/serviceaccount/namespace`); required outside a cluster.
   */
  leaseNamespace?: string;
  /** This replica's identity. Default: `<hostname>_<random UUID>`, as controller-runtime. */
  identity?: string;
  /** Default `DEFAULT_LEASE_DURATION_MS` (15 s). */
  leaseDurationMs?: number;
  /** Default `DEFAULT_RENEW_DEADLINE_MS` (10 s). */
  renewDeadlineMs?: number;
  /** Default `DEFAULT_RETRY_PERIOD_MS` (2 s). */
  retryPeriodMs?: number;
  /**
   * Release the Lease on a graceful stop, after the leader-only runnables have finished, so
   * a standby takes over at its next retry instead of after `leaseDurationMs`. Default
   * `true` (controller-runtime's default is false; the manager only releases once its
   * runnables are done, which is what makes releasing safe).
   */
  releaseOnCancel?: boolean;
}

/**
 * Options of a {@link Manager} (controller-runtime's `manager.Options`). Every field is
 * checked at construction; an invalid one throws `InvalidArgumentError` naming it.
 */
export interface ManagerOptions {
  /** The cluster to talk to, e.g. from `loadKubeConfig()` (or a client-node `KubeConfig`). Required. */
  kubeConfig: KubeConfigLike;
  /**
   * The program named in the User-Agent of every API request
   * (`<name>/<version> (<os>/<arch>) ctrlkit/<version>`), e.g.
   * `{ name: 'my-app', version: '1.2.3' }`. Default: the script's base name and `unknown`. Ignored with `userAgent`.
   */
  program?: ProgramInfo;
  /** The whole `User-Agent` header instead. Default: built from `program` (see `defaultUserAgent`). */
  userAgent?: string;
  /** Where the manager and what it runs log. Default: nowhere. */
  logger?: Logger;
  /** The clock of every timing decision. Default: the real clock. */
  clock?: Clock;
  /** `[host]:port` of `/metrics`; `'0'` (or `''`) turns it off. Default {@link DEFAULT_METRICS_BIND_ADDRESS}. */
  metricsBindAddress?: string;
  /** `[host]:port` of `/healthz` and `/readyz`; `'0'` (or `''`) turns it off. Default {@link DEFAULT_HEALTH_PROBE_BIND_ADDRESS}. */
  healthProbeBindAddress?: string;
  /** Elect a leader before starting leader-only runnables. Default: no election (every runnable starts at once). */
  leaderElection?: ManagerLeaderElectionOptions;
  /** Client-side requests per second of the manager's API clients. Default `DEFAULT_QPS` (20). */
  qps?: number;
  /** Client-side burst of the manager's API clients. Default `DEFAULT_BURST` (30). */
  burst?: number;
  /**
   * The wire format the manager's client asks for built-in types (`ClientOptions.contentType`).
   * Default `CONTENT_TYPE_PROTOBUF`, as client-go's typed clients.
   */
  contentType?: ContentType;
  /** How long, in ms, a stop waits for runnables to finish; `Infinity` waits for ever. Default {@link DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS}. */
  gracefulShutdownTimeoutMs?: number;
  /**
   * How long, in ms, one of the manager's informers may go without a watch the server
   * accepted (failing, backing off, relisting) before `/healthz` fails; `Infinity` never.
   * Default {@link DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS}.
   */
  informerUnwatchedTimeoutMs?: number;
  /** Options of the informer factory (namespace, transform, list mode, …). Default: the factory's defaults. */
  cache?: Omit<SharedInformerFactoryOptions, 'clock' | 'logger'>;
  /**
   * A webhook server (`@ctrlkit/runtime/webhook`) to run on every replica, leader or not,
   * started before the informers sync; `/readyz` fails (check `webhook`) until it listens,
   * and its metrics go to the manager's registry unless it has its own. Default: none.
   */
  webhookServer?: WebhookServer;
}

const knownOptions = new Set([
  'kubeConfig',
  'userAgent',
  'program',
  'logger',
  'clock',
  'metricsBindAddress',
  'healthProbeBindAddress',
  'leaderElection',
  'qps',
  'burst',
  'contentType',
  'gracefulShutdownTimeoutMs',
  'informerUnwatchedTimeoutMs',
  'cache',
  'webhookServer',
]);

const knownElectionOptions = new Set([
  'leaseName',
  'leaseNamespace',
  'identity',
  'leaseDurationMs',
  'renewDeadlineMs',
  'retryPeriodMs',
  'releaseOnCancel',
]);

/** Throws `InvalidArgumentError` for the first unknown or ill-typed field (ranges are checked by the parts). */
export function checkManagerOptions(options: ManagerOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'expected an options object');
  }
  for (const key of Object.keys(options)) {
    if (!knownOptions.has(key)) throw new InvalidArgumentError(key, 'unknown option');
  }
  if (typeof options.kubeConfig?.getCurrentCluster !== 'function') {
    throw new InvalidArgumentError(
      'kubeConfig',
      'expected a KubeConfig (from loadKubeConfig or @kubernetes/client-node)',
    );
  }
  if (options.kubeConfig.getCurrentCluster() === null) {
    throw new InvalidArgumentError('kubeConfig', 'has no current cluster');
  }
  const timeout = options.gracefulShutdownTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 0)) {
    throw new InvalidArgumentError(
      'gracefulShutdownTimeoutMs',
      `expected milliseconds >= 0 (Infinity to wait for ever), got ${String(timeout)}`,
    );
  }
  const unwatched = options.informerUnwatchedTimeoutMs;
  if (unwatched !== undefined && !(typeof unwatched === 'number' && unwatched > 0)) {
    throw new InvalidArgumentError(
      'informerUnwatchedTimeoutMs',
      `expected milliseconds > 0 (Infinity never to fail), got ${String(unwatched)}`,
    );
  }
  const webhook = options.webhookServer;
  if (
    webhook !== undefined &&
    (typeof webhook?.start !== 'function' || !('listening' in webhook))
  ) {
    throw new InvalidArgumentError('webhookServer', 'expected a WebhookServer');
  }
  const election = options.leaderElection;
  if (election !== undefined) {
    if (typeof election !== 'object' || election === null) {
      throw new InvalidArgumentError('leaderElection', 'expected an object');
    }
    rejectRenamedOptions(
      election,
      {
        leaseDuration: 'leaseDurationMs',
        renewDeadline: 'renewDeadlineMs',
        retryPeriod: 'retryPeriodMs',
      },
      'leaderElection',
    );
    for (const key of Object.keys(election)) {
      if (!knownElectionOptions.has(key)) {
        throw new InvalidArgumentError(`leaderElection.${key}`, 'unknown option');
      }
    }
    for (const key of ['leaseName', 'leaseNamespace', 'identity'] as const) {
      const value = election[key];
      if (
        (key === 'leaseName' || value !== undefined) &&
        (typeof value !== 'string' || value === '')
      ) {
        throw new InvalidArgumentError(`leaderElection.${key}`, 'expected a non-empty string');
      }
    }
    if (election.releaseOnCancel !== undefined && typeof election.releaseOnCancel !== 'boolean') {
      throw new InvalidArgumentError('leaderElection.releaseOnCancel', 'expected a boolean');
    }
  }
}
