//! client-go's REST client metrics (`rest_client_*`) on a prom-client registry.

import type { RestClientMetrics } from '@ctrlkit/client';
import { Counter, Histogram, type Registry } from 'prom-client';

/** client-go's buckets of `rest_client_request_duration_seconds`, in seconds. */
export const REST_CLIENT_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0,
];

/**
 * {@link RestClientMetrics} as client-go registers them:
 * `rest_client_requests_total{code,method,host}`,
 * `rest_client_request_duration_seconds{verb,host}` and
 * `rest_client_rate_limiter_duration_seconds{verb,host}`.
 */
export class PrometheusRestClientMetrics implements RestClientMetrics {
  readonly #requests: Counter<'code' | 'method' | 'host'>;
  readonly #duration: Histogram<'verb' | 'host'>;
  readonly #rateLimiter: Histogram<'verb' | 'host'>;

  constructor(registry: Registry) {
    this.#requests = new Counter({
      name: 'rest_client_requests_total',
      help: 'Number of HTTP requests, partitioned by status code, method, and host.',
      labelNames: ['code', 'method', 'host'],
      registers: [registry],
    });
    this.#duration = new Histogram({
      name: 'rest_client_request_duration_seconds',
      help: 'Request latency in seconds. Broken down by verb, and host.',
      labelNames: ['verb', 'host'],
      buckets: [...REST_CLIENT_DURATION_BUCKETS],
      registers: [registry],
    });
    this.#rateLimiter = new Histogram({
      name: 'rest_client_rate_limiter_duration_seconds',
      help: 'Client side rate limiter latency in seconds. Broken down by verb, and host.',
      labelNames: ['verb', 'host'],
      buckets: [...REST_CLIENT_DURATION_BUCKETS],
      registers: [registry],
    });
  }

  observe(request: { method: string; host: string; code: string; seconds: number }): void {
    this.#requests.labels(request.code, request.method, request.host).inc();
    this.#duration.labels(request.method, request.host).observe(request.seconds);
  }

  observeRateLimiterWait(request: { method: string; host: string; seconds: number }): void {
    this.#rateLimiter.labels(request.method, request.host).observe(request.seconds);
  }
}
