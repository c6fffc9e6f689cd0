//! The reconcile metrics of a controller under controller-runtime's names, on a prom-client registry.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** How a reconcile ended, controller-runtime's `result` label values. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue' | 'requeue_after';

/**
 * What a {@link Controller} reports about its reconciles (controller-runtime's
 * `internal/controller/metrics`). Each method takes the controller's name.
 */
export interface ReconcileMetrics {
  /** The controller starts with `workers` workers: sets the max-concurrency gauge, zeroes the counters. */
  started(controller: string, workers: number): void;
  /** A worker picked a key (`active` = +1) or finished it (`active` = -1). */
  activeWorkers(controller: string, delta: 1 | -1): void;
  /** A reconcile ended after `seconds`; `terminal` marks a {@link TerminalError}. */
  reconciled(
    controller: string,
    outcome: ReconcileOutcome,
    seconds: number,
    terminal: boolean,
  ): void;
}

/** controller-runtime's buckets of `controller_runtime_reconcile_time_seconds`, in seconds (5 ms to 60 s). */
export const RECONCILE_TIME_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9,
  1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

const outcomes: readonly ReconcileOutcome[] = ['success', 'error', 'requeue', 'requeue_after'];

/**
 * {@link ReconcileMetrics} as prom-client metrics registered on `registry`:
 * `controller_runtime_reconcile_total{controller,result}`,
 * `controller_runtime_reconcile_errors_total{controller}`,
 * `controller_runtime_terminal_reconcile_errors_total{controller}`,
 * `controller_runtime_reconcile_time_seconds{controller}`,
 * `controller_runtime_max_concurrent_reconciles{controller}`,
 * `controller_runtime_active_workers{controller}`.
 */
export class PrometheusReconcileMetrics implements ReconcileMetrics {
  readonly #total: Counter<'controller' | 'result'>;
  readonly #errors: Counter<'controller'>;
  readonly #terminal: Counter<'controller'>;
  readonly #time: Histogram<'controller'>;
  readonly #maxConcurrent: Gauge<'controller'>;
  readonly #active: Gauge<'controller'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#total = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.#errors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.#terminal = new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.#time = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: [...RECONCILE_TIME_BUCKETS],
      registers,
    });
    this.#maxConcurrent = new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Maximum number of concurrent reconciles per controller',
      labelNames: ['controller'],
      registers,
    });
    this.#active = new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'],
      registers,
    });
  }

  started(controller: string, workers: number): void {
    for (const result of outcomes) this.#total.labels(controller, result).inc(0);
    this.#errors.labels(controller).inc(0);
    this.#terminal.labels(controller).inc(0);
    this.#active.labels(controller).set(0);
    this.#maxConcurrent.labels(controller).set(workers);
  }

  activeWorkers(controller: string, delta: 1 | -1): void {
    this.#active.labels(controller).inc(delta);
  }

  reconciled(
    controller: string,
    outcome: ReconcileOutcome,
    seconds: number,
    terminal: boolean,
  ): void {
    this.#total.labels(controller, outcome).inc();
    this.#time.labels(controller).observe(seconds);
    if (outcome === 'error') this.#errors.labels(controller).inc();
    if (terminal) this.#terminal.labels(controller).inc();
  }
}
