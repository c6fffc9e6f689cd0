//! The Manager: one process's informers, runnables, leader election, endpoints and lifecycle (controller-runtime's `manager.Manager`).

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
  sleep,
} from '@ctrlkit/core';
import type { MetricsProvider } from '@ctrlkit/workqueue';
import { PrometheusMetricsProvider } from '@ctrlkit/workqueue/prometheus';
import {
  type Configuration,
  CoordinationV1Api,
  CoreV1Api,
  type KubeConfig,
} from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { ApiClientFactory } from '../client/api-client-factory.js';
import { SERVICE_ACCOUNT_DIR } from '../client/load-kube-config.js';
import { Controller } from '../controller/controller.js';
import { EventRecorder } from '../events/event-recorder.js';
import { CoreV1EventSink } from '../events/event-sink.js';
import { RestClient } from '../informers/rest-client.js';
import { SharedInformerFactory } from '../informers/shared-informer-factory.js';
import { LeaderElectionError } from '../leader-election/leader-election-error.js';
import { LeaderElector } from '../leader-election/leader-elector.js';
import { LeaseLock } from '../leader-election/lease-lock.js';
import { PrometheusLeaderElectionMetrics } from '../metrics/leader-election-metrics.js';
import { PrometheusReconcileMetrics, type ReconcileMetrics } from '../metrics/reconcile-metrics.js';
import { PrometheusRestClientMetrics } from '../metrics/rest-client-metrics.js';
import { type BindAddress, boundAddress, close, listen, parseBindAddress } from './bind-address.js';
import { type HealthCheck, HealthChecks } from './health-probes.js';
import { ManagerError } from './manager-error.js';
import {
  checkManagerOptions,
  DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
  DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS,
  DEFAULT_METRICS_BIND_ADDRESS,
  type ManagerOptions,
} from './manager-options.js';

/**
 * Work the manager runs (controller-runtime's `manager.Runnable`): `start` runs until its
 * signal aborts, then finishes what it is doing and resolves. A rejection stops the manager.
 */
export interface Runnable {
  /** A name for logs and errors. */
  name: string;
  /**
   * Run only while this replica leads (and only once it leads). Default `true`, as
   * controller-runtime treats a runnable that does not say. `false` for work every replica
   * does, such as a node agent or a cache warmer.
   */
  needLeaderElection?: boolean;
  /** Runs until `signal` aborts. */
  start(signal: AbortSignal): void | Promise<void>;
}

interface Task {
  name: string;
  done: Promise<void>;
  finished: boolean;
}

/**
 * Runs a controller process as controller-runtime's manager does. `start(signal)`:
 * 1. serves `/metrics` and `/healthz` + `/readyz`;
 * 2. starts the informers of {@link Manager.informerFactory} and waits for them to sync;
 * 3. starts the runnables that need no leader election;
 * 4. campaigns for the Lease (when `leaderElection` is set) and starts the leader-only
 *    runnables once it leads (at once without election).
 *
 * Guarantees:
 * - Leader-only runnables run only while this replica leads: when the lease is lost their
 *   signal aborts, the manager stops, and `start` rejects with a `LeaderElectionError`
 *   (`LeaseLost`), so the process exits non-zero and restarts as a standby.
 * - On a stop (the `start` signal aborts, or a runnable rejects), leader-only runnables are
 *   stopped and awaited first (a `Controller` drains its in-flight reconciles), then the
 *   others, within `gracefulShutdownTimeoutMs`; only then is the Lease released
 *   (`releaseOnCancel`), the informers stopped, events flushed, the endpoints closed.
 * - No global state: each manager has its own prom-client {@link Manager.registry}, API
 *   rate limiter and informers, so two managers in one process do not interfere.
 */
export class Manager {
  /** The cluster the manager talks to. */
  readonly kubeConfig: KubeConfig;
  /** This manager's metrics registry, served on `/metrics`: register your own metrics here. */
  readonly registry: Registry;
  /** The informers the manager starts and waits for before it starts runnables. */
  readonly informerFactory: SharedInformerFactory;
  /** The workqueue metrics provider on {@link Manager.registry} (`workqueue_*`), for queues of your own. */
  readonly metricsProvider: MetricsProvider;
  /** The reconcile metrics on {@link Manager.registry} (`controller_runtime_*`) that added controllers report to. */
  readonly reconcileMetrics: ReconcileMetrics;

  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #clients: ApiClientFactory;
  readonly #metricsAddress: BindAddress | undefined;
  readonly #probeAddress: BindAddress | undefined;
  readonly #gracefulShutdownTimeoutMs: number;
  readonly #healthz = new HealthChecks();
  readonly #readyz = new HealthChecks();
  readonly #runnables: Runnable[] = [];
  readonly #recorders = new Map<string, EventRecorder>();
  readonly #elector: LeaderElector | undefined;
  readonly #leaseName: string | undefined;
  readonly #leaderMetrics: PrometheusLeaderElectionMetrics;
  #electedResolve: () => void = () => {};
  #started = false;
  #cachesSynced = false;
  #servers: Server[] = [];
  #boundMetrics: string | undefined;
  #boundProbes: string | undefined;
  /** Started leader-only work: a lease loss now means stopping. */
  #onStartedLeading: (signal: AbortSignal) => void = () => {};
  #onStoppedLeading: () => void = () => {};

  /** Resolves once this replica leads (at `start` without leader election), as controller-runtime's `Elected()`. */
  readonly elected: Promise<void>;

  constructor(options: ManagerOptions) {
    checkManagerOptions(options);
    this.kubeConfig = options.kubeConfig;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
    this.#metricsAddress = parseBindAddress(
      'metricsBindAddress',
      options.metricsBindAddress ?? DEFAULT_METRICS_BIND_ADDRESS,
    );
    this.#probeAddress = parseBindAddress(
      'healthProbeBindAddress',
      options.healthProbeBindAddress ?? DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
    );
    this.#gracefulShutdownTimeoutMs =
      options.gracefulShutdownTimeoutMs ?? DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS;
    this.registry = new Registry();
    this.metricsProvider = new PrometheusMetricsProvider({ registry: this.registry });
    this.reconcileMetrics = new PrometheusReconcileMetrics(this.registry);
    this.#leaderMetrics = new PrometheusLeaderElectionMetrics(this.registry);
    const restMetrics = new PrometheusRestClientMetrics(this.registry);
    const clientOptions = {
      ...(options.qps !== undefined && { qps: options.qps }),
      ...(options.burst !== undefined && { burst: options.burst }),
      ...(options.userAgent !== undefined && { userAgent: options.userAgent }),
      metrics: restMetrics,
      clock: this.#clock,
    };
    this.#clients = new ApiClientFactory(this.kubeConfig, clientOptions);
    // Its LISTs and WATCHes count in rest_client_* too, as client-go's informers do.
    const informerClient = new RestClient(this.kubeConfig, {
      metrics: restMetrics,
      ...(options.cache?.disableCompression !== undefined && {
        disableCompression: options.cache.disableCompression,
      }),
    });
    this.informerFactory = new SharedInformerFactory(informerClient, {
      ...options.cache,
      clock: this.#clock,
      logger: this.#logger,
    });
    this.elected = new Promise((resolve) => {
      this.#electedResolve = resolve;
    });
    this.#readyz.add('informers', () => {
      if (!this.#cachesSynced) throw new Error('informers have not synced');
    });
    const election = options.leaderElection;
    if (election !== undefined) {
      const namespace = election.leaseNamespace ?? podNamespace();
      if (namespace === undefined) {
        throw new InvalidArgumentError(
          'leaderElection.leaseNamespace',
          'required when not running in a pod (no service account namespace file)',
        );
      }
      // Leader election gets its own rate limiter (as controller-runtime's separate client), so
      // a busy app cannot starve its renewals; its requests are counted all the same.
      const electionClients = new ApiClientFactory(this.kubeConfig, {
        ...clientOptions,
        qps: Number.POSITIVE_INFINITY,
      });
      const lock = new LeaseLock({
        namespace,
        name: election.leaseName,
        identity: election.identity ?? `${hostname()}_${randomUUID()}`,
        api: electionClients.makeApiClient(CoordinationV1Api),
        eventRecorder: this.getEventRecorder(election.leaseName),
      });
      this.#leaseName = election.leaseName;
      this.#elector = newElector(lock, election, {
        clock: this.#clock,
        logger: this.#logger,
        callbacks: {
          onStartedLeading: (signal) => this.#onStartedLeading(signal),
          onStoppedLeading: () => this.#onStoppedLeading(),
        },
      });
      this.#leaderMetrics.setLeading(election.leaseName, false);
      const elector = this.#elector;
      this.#healthz.add('leaderElection', () => {
        if (!elector.check(DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS)) {
          throw new Error('the leader has not renewed its lease in time');
        }
      });
    }
  }

  /** A client-node API client, rate limited by `qps`/`burst`, with the manager's user agent, counted in `rest_client_*`. */
  makeApiClient<T>(ApiClass: new (configuration: Configuration) => T): T {
    return this.#clients.makeApiClient(ApiClass);
  }

  /** The event recorder of `component` (one per component; its events are flushed on stop). */
  getEventRecorder(component: string): EventRecorder {
    let recorder = this.#recorders.get(component);
    if (recorder === undefined) {
      recorder = new EventRecorder({
        component,
        sink: new CoreV1EventSink(this.makeApiClient(CoreV1Api)),
        clock: this.#clock,
        logger: this.#logger,
      });
      this.#recorders.set(component, recorder);
    }
    return recorder;
  }

  /**
   * Adds work to run. A {@link Controller} is run as a runnable named after it, leader-only
   * unless `options.needLeaderElection` is false, and reports its queue and reconcile
   * metrics to this manager (unless its options named others). Call before `start`.
   */
  add(runnable: Runnable | Controller, options: { needLeaderElection?: boolean } = {}): this {
    if (this.#started) throw new ManagerError('AlreadyStarted', 'add() after start()');
    if (runnable instanceof Controller) {
      const controller = runnable;
      const needLeaderElection = options.needLeaderElection ?? true;
      if (typeof needLeaderElection !== 'boolean') {
        throw new InvalidArgumentError('options.needLeaderElection', 'expected a boolean');
      }
      controller.useMetrics({
        metricsProvider: this.metricsProvider,
        reconcileMetrics: this.reconcileMetrics,
      });
      this.#runnables.push({
        name: controller.name,
        needLeaderElection,
        start: (signal) => controller.run(signal),
      });
      return this;
    }
    if (typeof runnable?.start !== 'function') {
      throw new InvalidArgumentError('runnable.start', 'expected a function');
    }
    if (typeof runnable.name !== 'string' || runnable.name === '') {
      throw new InvalidArgumentError('runnable.name', 'expected a non-empty string');
    }
    if (
      runnable.needLeaderElection !== undefined &&
      typeof runnable.needLeaderElection !== 'boolean'
    ) {
      throw new InvalidArgumentError('runnable.needLeaderElection', 'expected a boolean');
    }
    this.#runnables.push(runnable);
    return this;
  }

  /** Adds a liveness check served on `/healthz` and `/healthz/<name>`: throw to fail. */
  addHealthzCheck(name: string, check: HealthCheck): this {
    addCheck(this.#healthz, 'healthz', name, check);
    return this;
  }

  /** Adds a readiness check served on `/readyz` and `/readyz/<name>`: throw to fail. */
  addReadyzCheck(name: string, check: HealthCheck): this {
    addCheck(this.#readyz, 'readyz', name, check);
    return this;
  }

  /** True while this replica leads; always true without leader election once started. */
  isLeader(): boolean {
    return this.#elector === undefined ? this.#started : this.#elector.isLeader();
  }

  /** `host:port` where `/metrics` listens, once `start` has bound it; undefined when off. */
  get metricsAddress(): string | undefined {
    return this.#boundMetrics;
  }

  /** `host:port` where `/healthz` and `/readyz` listen, once `start` has bound it; undefined when off. */
  get healthProbeAddress(): string | undefined {
    return this.#boundProbes;
  }

  /**
   * Runs everything until `signal` aborts, then stops gracefully; resolves once stopped.
   * Rejects with `LeaderElectionError` (`LeaseLost`) when the lease was lost, with
   * {@link ManagerError} when an endpoint cannot listen (`ListenFailed`), a runnable rejected
   * (`RunnableFailed`) or the stop outlasted `gracefulShutdownTimeoutMs`
   * (`GracefulShutdownTimeout`); always after stopping everything it started.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new ManagerError('AlreadyStarted', 'start() called twice');
    this.#started = true;
    const stop = new AbortController();
    let failure: unknown;
    const fail = (error: unknown): void => {
      failure ??= error;
      stop.abort(error);
    };
    const onAbort = (): void => stop.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const informers = new AbortController();
    const others = new AbortController();
    const leaders = new AbortController();
    const election = new AbortController();
    const otherTasks: Task[] = [];
    const leaderTasks: Task[] = [];
    let stopping = false;
    let electorDone: Promise<void> = Promise.resolve();
    const run = (runnable: Runnable, runSignal: AbortSignal, into: Task[]): void => {
      const task: Task = { name: runnable.name, done: Promise.resolve(), finished: false };
      task.done = (async () => {
        try {
          await runnable.start(runSignal);
        } catch (cause) {
          if (!stopping || failure === undefined) {
            this.#logger.error({ runnable: runnable.name, err: cause }, 'runnable failed');
          }
          fail(
            new ManagerError(
              'RunnableFailed',
              `runnable ${runnable.name} failed: ${String(cause)}`,
              {
                runnable: runnable.name,
                cause,
              },
            ),
          );
        } finally {
          task.finished = true;
        }
      })();
      into.push(task);
    };
    const startLeaderRunnables = (): void => {
      this.informerFactory.start(informers.signal);
      for (const runnable of this.#runnables) {
        if (runnable.needLeaderElection !== false) run(runnable, leaders.signal, leaderTasks);
      }
      this.#electedResolve();
    };

    try {
      await this.#serve();
      this.#logger.info(
        { metrics: this.#boundMetrics, healthProbe: this.#boundProbes },
        'starting manager',
      );
      if (!stop.signal.aborted) {
        this.informerFactory.start(informers.signal);
        const synced = await this.informerFactory.waitForCacheSync(stop.signal);
        this.#cachesSynced = !stop.signal.aborted && [...synced.values()].every(Boolean);
      }
      if (!stop.signal.aborted) {
        for (const runnable of this.#runnables) {
          if (runnable.needLeaderElection === false) run(runnable, others.signal, otherTasks);
        }
        if (this.#elector === undefined) {
          startLeaderRunnables();
        } else {
          const leaseName = this.#leaseName as string;
          this.#onStartedLeading = (leading) => {
            this.#leaderMetrics.setLeading(leaseName, true);
            leading.addEventListener('abort', () => leaders.abort(leading.reason), { once: true });
            if (!stop.signal.aborted) startLeaderRunnables();
          };
          this.#onStoppedLeading = () => {
            this.#leaderMetrics.setLeading(leaseName, false);
            if (!stopping && !stop.signal.aborted) {
              fail(
                new LeaderElectionError('LeaseLost', `leader election lost: lease ${leaseName}`),
              );
            }
          };
          electorDone = this.#elector.run(election.signal);
        }
        await new Promise<void>((resolve) => {
          if (stop.signal.aborted) resolve();
          else stop.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    } catch (error) {
      fail(error);
    } finally {
      signal.removeEventListener('abort', onAbort);
      stopping = true;
      this.#logger.info({}, 'stopping manager');
      const deadline = this.#clock.now() + this.#gracefulShutdownTimeoutMs;
      const stillRunning = await this.#stopRunnables(
        deadline,
        leaders,
        leaderTasks,
        others,
        otherTasks,
      );
      if (stillRunning.length > 0) {
        fail(
          new ManagerError(
            'GracefulShutdownTimeout',
            `runnables still running after ${this.#gracefulShutdownTimeoutMs} ms: ${stillRunning.join(', ')}`,
            { runnable: stillRunning.join(', ') },
          ),
        );
      }
      election.abort();
      await electorDone;
      informers.abort();
      await this.informerFactory.shutdown();
      // Queued events are written while time is left; the rest are dropped.
      await this.#within(
        deadline,
        Promise.all([...this.#recorders.values()].map((recorder) => recorder.shutDown())),
      );
      await Promise.all(this.#servers.map(close));
      this.#servers = [];
      this.#logger.info({}, 'manager stopped');
    }
    if (failure !== undefined) throw failure;
  }

  /** Stops leader-only runnables, then the others, until `deadline`; the names still running. */
  async #stopRunnables(
    deadline: number,
    leaders: AbortController,
    leaderTasks: Task[],
    others: AbortController,
    otherTasks: Task[],
  ): Promise<string[]> {
    leaders.abort(new Error('manager stopping'));
    await this.#within(deadline, Promise.all(leaderTasks.map((task) => task.done)));
    others.abort(new Error('manager stopping'));
    await this.#within(deadline, Promise.all(otherTasks.map((task) => task.done)));
    return [...leaderTasks, ...otherTasks]
      .filter((task) => !task.finished)
      .map((task) => task.name);
  }

  /** Waits for `work`, or until the clock reaches `deadline`, whichever comes first. */
  async #within(deadline: number, work: Promise<unknown>): Promise<void> {
    const left = deadline - this.#clock.now();
    if (!(left > 0)) return;
    if (!Number.isFinite(left)) {
      await work;
      return;
    }
    const timeout = new AbortController();
    await Promise.race([work, sleep(this.#clock, left, timeout.signal)]);
    timeout.abort();
  }

  /** Binds the metrics and probe endpoints. */
  async #serve(): Promise<void> {
    if (this.#metricsAddress !== undefined) {
      const server = await listen(
        'metricsBindAddress',
        this.#metricsAddress,
        (request, response) => void this.#serveMetrics(request, response),
      );
      this.#servers.push(server);
      this.#boundMetrics = boundAddress(server);
    }
    if (this.#probeAddress !== undefined) {
      const server = await listen(
        'healthProbeBindAddress',
        this.#probeAddress,
        (request, response) => void this.#serveProbes(request, response),
      );
      this.#servers.push(server);
      this.#boundProbes = boundAddress(server);
    }
  }

  async #serveMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    try {
      const body = await this.registry.metrics();
      response.writeHead(200, { 'Content-Type': this.registry.contentType }).end(body);
    } catch (error) {
      response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    }
  }

  async #serveProbes(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/(healthz|readyz)(\/.*)?$/.exec(url.pathname);
    if (match === null) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    const checks = match[1] === 'healthz' ? this.#healthz : this.#readyz;
    await checks.serve(match[2] ?? '', url, response);
  }
}

function addCheck(checks: HealthChecks, kind: string, name: string, check: HealthCheck): void {
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new InvalidArgumentError(
      'name',
      `expected a ${kind} check name of letters, digits, '.', '_', '-', got ${String(name)}`,
    );
  }
  if (typeof check !== 'function') throw new InvalidArgumentError('check', 'expected a function');
  if (checks.has(name))
    throw new InvalidArgumentError('name', `a ${kind} check named ${name} exists`);
  checks.add(name, check);
}

/** The namespace of the pod this process runs in, from its service account mount. */
function podNamespace(): string | undefined {
  const file = join(SERVICE_ACCOUNT_DIR, 'namespace');
  if (!existsSync(file)) return undefined;
  const namespace = readFileSync(file, 'utf8').trim();
  return namespace === '' ? undefined : namespace;
}

/** The elector, with its option errors renamed after the manager's options. */
function newElector(
  lock: LeaseLock,
  election: NonNullable<ManagerOptions['leaderElection']>,
  rest: Pick<ConstructorParameters<typeof LeaderElector>[0], 'clock' | 'logger' | 'callbacks'>,
): LeaderElector {
  try {
    return new LeaderElector({
      lock,
      ...(election.leaseDurationMs !== undefined && { leaseDuration: election.leaseDurationMs }),
      ...(election.renewDeadlineMs !== undefined && { renewDeadline: election.renewDeadlineMs }),
      ...(election.retryPeriodMs !== undefined && { retryPeriod: election.retryPeriodMs }),
      releaseOnCancel: election.releaseOnCancel ?? true,
      name: election.leaseName,
      ...rest,
    });
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) {
      const field = `leaderElection.${error.field === 'lock.identity' ? 'identity' : `${error.field}Ms`}`;
      throw new InvalidArgumentError(field, error.message);
    }
    throw error;
  }
}
