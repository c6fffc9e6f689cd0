//! controller-runtime's webhook metrics on a prom-client registry.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the webhook server reports for each request; {@link PrometheusWebhookMetrics} by default. */
export interface WebhookMetrics {
  /** A request to `webhook` (its path) started. */
  requestStarted(webhook: string): void;
  /** A request to `webhook` was answered with HTTP `code` after `seconds`. */
  requestFinished(webhook: string, code: number, seconds: number): void;
}

/**
 * controller-runtime's webhook metrics: `controller_runtime_webhook_requests_total{webhook,code}`,
 * `controller_runtime_webhook_latency_seconds{webhook}` (a histogram) and
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
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
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
