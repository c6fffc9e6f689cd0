//! controller-runtime's webhook metrics on a prom-client registry.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The latency histogram's buckets, in seconds: controller-runtime's
 * `prometheus.ExponentialBuckets(10e-9, 10, 12)`, 10 ns to 1000 s, one per decade.
 */
export const WEBHOOK_LATENCY_BUCKETS: readonly number[] = Object.freeze(
  Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1))),
);

/** What the webhook server reports for each request; {@link PrometheusWebhookMetrics} by default. */
export interface WebhookMetrics {
  /** A request to `webhook` (its path) started. */
  requestStarted(webhook: string): void;
  /** A request to `webhook` was answered with HTTP `code` after `seconds`. */
  requestFinished(webhook: string, code: number, seconds: number): void;
}

/**
 * controller-runtime's webhook metrics: `controller_runtime_webhook_requests_total{webhook,code}`,
 * `controller_runtime_webhook_latency_seconds{webhook}` (a histogram with
 * {@link WEBHOOK_LATENCY_BUCKETS}) and
 * `controller_runtime_webhook_requests_in_flight{webhook}`; `webhook` is the path.
 */
export class PrometheusWebhookMetrics implements WebhookMetrics {
  readonly #total: Counter<'webhook' | 'code'>;
  readonly #latency: Histogram<'webhook'>;
  readonly #inFlight: Gauge<'webhook'>;

  constructor(registry: Registry) {
    this.#total = new Counter({
      name: 'controller_runtime_webhook_requests_total',
      help: 'Total number of admission requests by HTTP status code.',
      labelNames: ['webhook', 'code'],
      registers: [registry],
    });
    this.#latency = new Histogram({
      name: 'controller_runtime_webhook_latency_seconds',
      help: 'Histogram of the latency of processing admission requests',
      labelNames: ['webhook'],
      buckets: [...WEBHOOK_LATENCY_BUCKETS],
      registers: [registry],
    });
    this.#inFlight = new Gauge({
      name: 'controller_runtime_webhook_requests_in_flight',
      help: 'Current number of admission requests being served.',
      labelNames: ['webhook'],
      registers: [registry],
    });
  }

  requestStarted(webhook: string): void {
    this.#inFlight.labels(webhook).inc();
  }

  requestFinished(webhook: string, code: number, seconds: number): void {
    this.#inFlight.labels(webhook).dec();
    this.#total.labels(webhook, String(code)).inc();
    this.#latency.labels(webhook).observe(seconds);
  }
}
