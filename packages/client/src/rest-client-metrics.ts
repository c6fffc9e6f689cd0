//! What the client reports about each request, for client-go's `rest_client_*` metrics.

/**
 * What a rate-limited API client reports about each request. `@ctrlkit/runtime`'s
 * `PrometheusRestClientMetrics` implements it on a prom-client registry; a program that does
 * not use prom-client implements these one or two methods itself.
 */
export interface RestClientMetrics {
  /**
   * A request ended: `code` is the HTTP status as a string, or `'<error>'` when no response
   * arrived (client-go's label); `seconds` counts from after the rate limiter let it go.
   */
  observe(request: { method: string; host: string; code: string; seconds: number }): void;
  /** A request waited `seconds` for the client's token bucket (0 when it had a token). Optional. */
  observeRateLimiterWait?(request: { method: string; host: string; seconds: number }): void;
}
