//! The Manager: one process's informers, runnables, leader election, endpoints and lifecycle (controller-runtime's `manager.Manager`).

import { type Client, createClient, type KubeConfigLike } from '@ctrlkit/client';
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
import { Registry } from 'prom-client';
import { Controller } from '../controller/controller.js';
import { EventRecorder } from '../events/event-recorder.js';
import { CoreV1EventSink } from '../events/event-sink.js';
import { SharedInformerFactory } from '../informers/shared-informer-factory.js';
import { LeaderElectionError } from '../leader-election/leader-election-error.js';
import type { LeaderElector } from '../leader-election/leader-elector.js';
import { PrometheusInformerMetrics } from '../metrics/informer-metrics.js';
import { PrometheusLeaderElectionMetrics } from '../metrics/leader-election-metrics.js';
import { PrometheusReconcileMetrics, type ReconcileMetrics } from '../metrics/reconcile-metrics.js';
import { PrometheusRestClientMetrics } from '../metrics/rest-client-metrics.js';
import type { WebhookServer } from '../webhook/webhook-server.js';
import { parseBindAddress } from './bind-address.js';
import { ManagerEndpoints } from './endpoints.js';
import type { HealthCheck } from './health-probes.js';
import { informerHealthCheck } from './informer-health-check.js';
import {
  type InformerTracker,
  type TrackedInformer,
  TrackedInformers,
} from './informer-tracker.js';
import { ManagerError } from './manager-error.js';
import { newManagerElector } from './manager-leader-election.js';
import {
  checkManagerOptions,
  DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
  DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS,
  DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS,
  DEFAULT_METRICS_BIND_ADDRESS,
  type ManagerOptions,
} from './manager-options.js';
import { type Runnable, RunnableGroup } from './runnable-group.js';

/** The period of the timer that keeps the process alive while the manager runs (it does nothing). */
const KEEP_ALIVE_INTERVAL_MS = 60_000;

/** The state of one `start`: its stop signal, the first failure, and what it started. */
interface StartState {
  /** Aborts when the manager must stop. */
  readonly stop: AbortController;
  /** Records the first failure and stops. */
  fail(error: unknown): void;
  /** True once the manager is stopping. */
  stopping: boolean;
  /** True once the lease was lost: the stop does not wait for runnables (see `#shutdown`). */
  leaseLost: boolean;
  readonly informers: AbortController;
  readonly others: RunnableGroup;
  readonly leaders: RunnableGroup;
  readonly election: AbortController;
  electorDone: Promise<void>;
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
 *   signal aborts, the manager stops without waiting for them (as controller-runtime), and
 *   `start` rejects with a `LeaderElectionError` (`LeaseLost`), so the process exits
 *   non-zero and restarts as a standby.
 * - On a stop (the `start` signal aborts, or a runnable rejects), leader-only runnables are
 *   stopped and awaited first (a `Controller` drains its in-flight reconciles), then the
 *   others, within `gracefulShutdownTimeoutMs`; only then is the Lease released
 *   (`releaseOnCancel`), the informers stopped, events flushed, the endpoints closed.
 * - No global state: each manager has its own prom-client {@link Manager.registry}, API
 *   rate limiter and informers, so two managers in one process do not interfere.
 */
export class Manager implements InformerTracker {
  /** The cluster the manager talks to. */
  readonly kubeConfig: KubeConfigLike;
  /**
   * The one client of this manager (controller-runtime's `mgr.GetClient()`): its informers,
   * leader election and event recorders use it, and so should every controller it runs.
   * Rate limited by `qps`/`burst`, named by `program`/`userAgent`, counted in
   * `rest_client_*` on {@link Manager.registry}.
   */
  readonly client: Client;
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
  readonly #endpoints: ManagerEndpoints;
  readonly #gracefulShutdownTimeoutMs: number;
  readonly #runnables: Runnable[] = [];
  readonly #recorders = new Map<string, EventRecorder>();
  readonly #tracked = new TrackedInformers();
  readonly #elector: LeaderElector | undefined;
  readonly #webhookServer: WebhookServer | undefined;
  readonly #leaseName: string | undefined;
  readonly #leaderMetrics: PrometheusLeaderElectionMetrics;
  #electedResolve: () => void = () => {};
  #started = false;
  #cachesSynced = false;
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
    const metricsAddress = parseBindAddress(
      'metricsBindAddress',
      options.metricsBindAddress ?? DEFAULT_METRICS_BIND_ADDRESS,
    );
    const probeAddress = parseBindAddress(
      'healthProbeBindAddress',
      options.healthProbeBindAddress ?? DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
    );
    this.#gracefulShutdownTimeoutMs =
      options.gracefulShutdownTimeoutMs ?? DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS;
    this.registry = new Registry();
    this.#endpoints = new ManagerEndpoints(this.registry, metricsAddress, probeAddress);
    this.metricsProvider = new PrometheusMetricsProvider({ registry: this.registry });
    this.reconcileMetrics = new PrometheusReconcileMetrics(this.registry);
    this.#leaderMetrics = new PrometheusLeaderElectionMetrics(this.registry);
    const { disableCompression, ...cache } = options.cache ?? {};
    this.client = createClient(this.kubeConfig, {
      ...(options.qps !== undefined && { qps: options.qps }),
      ...(options.burst !== undefined && { burst: options.burst }),
      ...(options.contentType !== undefined && { contentType: options.contentType }),
      ...(options.userAgent !== undefined && { userAgent: options.userAgent }),
      ...(options.program !== undefined && { program: options.program }),
      ...(disableCompression !== undefined && { disableCompression }),
      metrics: new PrometheusRestClientMetrics(this.registry),
      clock: this.#clock,
    });
    // Its LISTs and WATCHes go through the one client: rate limited and counted in rest_client_*.
    this.informerFactory = new SharedInformerFactory(this.client, {
      ...cache,
      clock: this.#clock,
      logger: this.#logger,
    });
    this.elected = new Promise((resolve) => {
      this.#electedResolve = resolve;
    });
    this.#endpoints.addCheck('readyz', 'informers', () => {
      if (!this.#cachesSynced) throw new Error('informers have not synced');
    });
    this.#webhookServer = this.#useWebhookServer(options.webhookServer);
    const informerHealth = () => this.#tracked.addHealthTo(this.informerFactory.health());
    new PrometheusInformerMetrics(this.registry, informerHealth, this.#clock);
    this.#endpoints.addCheck(
      'healthz',
      'informers',
      informerHealthCheck(
        informerHealth,
        this.#clock,
        options.informerUnwatchedTimeoutMs ?? DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS,
      ),
    );
    const election = options.leaderElection;
    if (election !== undefined) {
      this.#leaseName = election.leaseName;
      this.#elector = newManagerElector(
        this.client,
        election,
        this.getEventRecorder(election.leaseName),
        {
          clock: this.#clock,
          logger: this.#logger,
          callbacks: {
            onStartedLeading: (signal) => this.#onStartedLeading(signal),
            onStoppedLeading: () => this.#onStoppedLeading(),
          },
        },
      );
      this.#leaderMetrics.setLeading(election.leaseName, false);
      const elector = this.#elector;
      this.#endpoints.addCheck('healthz', 'leaderElection', () => {
        if (!elector.check(DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS)) {
          throw new Error('the leader has not renewed its lease in time');
        }
      });
    }
  }

  /** Puts the server's metrics on the registry and gates `/readyz` on it listening. */
  #useWebhookServer(server: WebhookServer | undefined): WebhookServer | undefined {
    server?.useRegistry(this.registry);
    if (server !== undefined) {
      this.#endpoints.addCheck('readyz', 'webhook', () => {
        if (!server.listening) throw new Error('the webhook server is not listening');
      });
    }
    return server;
  }

  /**
   * Tracks an informer made outside {@link Manager.informerFactory} (by a library such as
   * `@ctrlkit/dra-resourceslice`) in `ctrlkit_informer_*` and the `/healthz` check
   * `informers`, until the returned function is called. Throws an `InvalidArgumentError`
   * when an informer of that name is already tracked.
   */
  trackInformer(informer: TrackedInformer): () => void {
    return this.#tracked.trackInformer(informer);
  }

  /** The event recorder of `component` (one per component; its events are flushed on stop). */
  getEventRecorder(component: string): EventRecorder {
    let recorder = this.#recorders.get(component);
    if (recorder === undefined) {
      recorder = new EventRecorder({
        component,
        sink: new CoreV1EventSink(this.client),
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
    this.#endpoints.addCheck('healthz', name, check);
    return this;
  }

  /** Adds a readiness check served on `/readyz` and `/readyz/<name>`: throw to fail. */
  addReadyzCheck(name: string, check: HealthCheck): this {
    this.#endpoints.addCheck('readyz', name, check);
    return this;
  }

  /** True while this replica leads; always true without leader election once started. */
  isLeader(): boolean {
    return this.#elector === undefined ? this.#started : this.#elector.isLeader();
  }

  /** `host:port` where `/metrics` listens, once `start` has bound it; undefined when off. */
  get metricsAddress(): string | undefined {
    return this.#endpoints.metricsAddress;
  }

  /** `host:port` where `/healthz` and `/readyz` listen, once `start` has bound it; undefined when off. */
  get healthProbeAddress(): string | undefined {
    return this.#endpoints.healthProbeAddress;
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
    let failure: unknown;
    const stop = new AbortController();
    const fail = (error: unknown): void => {
      failure ??= error;
      stop.abort(error);
    };
    const onAbort = (): void => stop.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const onRunnableError = (runnable: Runnable, cause: unknown): void => {
      if (!state.stopping || failure === undefined) {
        this.#logger.error({ runnable: runnable.name, err: cause }, 'runnable failed');
      }
      fail(
        new ManagerError('RunnableFailed', `runnable ${runnable.name} failed: ${String(cause)}`, {
          runnable: runnable.name,
          cause,
        }),
      );
    };
    const state: StartState = {
      stop,
      fail,
      stopping: false,
      leaseLost: false,
      informers: new AbortController(),
      others: new RunnableGroup(onRunnableError),
      leaders: new RunnableGroup(onRunnableError),
      election: new AbortController(),
      electorDone: Promise.resolve(),
    };
    // The process lives while the manager runs, even when nothing else holds it (endpoints
    // off, the apiserver away and the informers waiting out a backoff on unref'd timers).
    const keepAlive = setInterval(() => {}, KEEP_ALIVE_INTERVAL_MS);
    try {
      await this.#run(state);
    } catch (error) {
      fail(error);
    } finally {
      signal.removeEventListener('abort', onAbort);
      state.stopping = true;
      await this.#shutdown(state);
      clearInterval(keepAlive);
    }
    if (failure !== undefined) throw failure;
  }

  /** Serves the endpoints, syncs the informers, starts the runnables, campaigns; returns once told to stop. */
  async #run(state: StartState): Promise<void> {
    const { stop } = state;
    await this.#endpoints.serve();
    this.#logger.info(
      {
        metrics: this.#endpoints.metricsAddress,
        healthProbe: this.#endpoints.healthProbeAddress,
      },
      'starting manager',
    );
    if (stop.signal.aborted) return;
    // Webhooks serve on every replica, and before the caches sync, as controller-runtime's.
    if (this.#webhookServer !== undefined) state.others.start(this.#webhookServer);
    this.informerFactory.start(state.informers.signal);
    const synced = await this.informerFactory.waitForCacheSync(stop.signal);
    this.#cachesSynced = !stop.signal.aborted && [...synced.values()].every(Boolean);
    if (stop.signal.aborted) return;
    for (const runnable of this.#runnables) {
      if (runnable.needLeaderElection === false) state.others.start(runnable);
    }
    if (this.#elector === undefined) {
      this.#startLeaderRunnables(state);
    } else {
      this.#campaign(state, this.#elector);
    }
    await new Promise<void>((resolve) => {
      if (stop.signal.aborted) resolve();
      else stop.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Runs the elector: leader-only runnables start once this replica leads; losing the lease fails the manager. */
  #campaign(state: StartState, elector: LeaderElector): void {
    const leaseName = this.#leaseName as string;
    this.#onStartedLeading = (leading) => {
      this.#leaderMetrics.setLeading(leaseName, true);
      leading.addEventListener('abort', () => state.leaders.abort(leading.reason), {
        once: true,
      });
      if (!state.stop.signal.aborted) this.#startLeaderRunnables(state);
    };
    this.#onStoppedLeading = () => {
      this.#leaderMetrics.setLeading(leaseName, false);
      if (!state.stopping && !state.stop.signal.aborted) {
        state.leaseLost = true;
        state.fail(
          new LeaderElectionError('LeaseLost', `leader election lost: lease ${leaseName}`),
        );
      }
    };
    state.electorDone = elector.run(state.election.signal);
  }

  #startLeaderRunnables(state: StartState): void {
    this.informerFactory.start(state.informers.signal);
    for (const runnable of this.#runnables) {
      if (runnable.needLeaderElection !== false) state.leaders.start(runnable);
    }
    this.#electedResolve();
  }

  /**
   * Stops leader-only runnables, then the others, within `gracefulShutdownTimeoutMs`; then
   * the elector (releasing the Lease), the informers, the event recorders and the endpoints.
   * After a lost lease it waits for nothing (as controller-runtime, which sets its graceful
   * shutdown timeout to 0 then): another replica may already lead, and work still running here
   * (a reconcile hung on a dead connection, say) must not hold the exit.
   */
  async #shutdown(state: StartState): Promise<void> {
    this.#logger.info({}, 'stopping manager');
    const graceMs = state.leaseLost ? 0 : this.#gracefulShutdownTimeoutMs;
    const deadline = this.#clock.now() + graceMs;
    state.leaders.abort(new Error('manager stopping'));
    await this.#within(deadline, state.leaders.done());
    state.others.abort(new Error('manager stopping'));
    await this.#within(deadline, state.others.done());
    const stillRunning = [...state.leaders.stillRunning(), ...state.others.stillRunning()];
    if (stillRunning.length > 0) {
      state.fail(
        new ManagerError(
          'GracefulShutdownTimeout',
          `runnables still running after ${graceMs} ms: ${stillRunning.join(', ')}`,
          { runnable: stillRunning.join(', ') },
        ),
      );
    }
    state.election.abort();
    await state.electorDone;
    state.informers.abort();
    await this.informerFactory.shutdown();
    // Queued events are written while time is left; the rest are dropped.
    await this.#within(
      deadline,
      Promise.all([...this.#recorders.values()].map((recorder) => recorder.shutDown())),
    );
    await this.#endpoints.close();
    this.#logger.info({}, 'manager stopped');
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
}
