//! The client-side rate limit (a token bucket: client-go's QPS and Burst) and the server's Retry-After.

import type { IncomingMessage } from 'node:http';
import { type Clock, retryAfterMs, sleep, TokenBucket } from '@ctrlkit/core';
import type { RestClientMetrics } from './rest-client-metrics.js';

/**
 * Requests per second a client may send, after the burst: 20, controller-runtime's
 * default. client-go's own default (5, burst 10) throttles a controller that writes status
 * for a few hundred objects for minutes at startup.
 */
export const DEFAULT_QPS = 20;
/** Requests a client may send at once before `qps` applies: 30, as controller-runtime. */
export const DEFAULT_BURST = 30;
/** How many times a request the server answered with a delay (429, or 5xx with `Retry-After`) is sent again: 10, as client-go. */
export const DEFAULT_MAX_RETRIES = 10;

/**
 * One token bucket for every non-watch request of a client: a request waits for a token
 * before it is sent (and is not sent when its signal aborts meanwhile). The wait is
 * reported as `rest_client_rate_limiter_duration_seconds`.
 */
export class RequestThrottle {
  readonly #bucket: TokenBucket;
  readonly #clock: Clock;
  readonly #metrics: RestClientMetrics | undefined;

  constructor(options: {
    qps: number;
    burst: number;
    clock: Clock;
    metrics: RestClientMetrics | undefined;
  }) {
    const { qps, burst, clock } = options;
    this.#bucket = new TokenBucket(qps, burst, clock);
    this.#clock = options.clock;
    this.#metrics = options.metrics;
  }

  /** Waits for a token; rejects when `signal` aborts first. */
  async wait(method: string, host: string, signal: AbortSignal | undefined): Promise<void> {
    const waitMs = this.#bucket.reserve();
    if (waitMs > 0) await sleep(this.#clock, waitMs, signal ?? new AbortController().signal);
    signal?.throwIfAborted();
    this.#metrics?.observeRateLimiterWait?.({ method, host, seconds: Math.max(0, waitMs) / 1000 });
  }
}

/**
 * How long to wait before sending again a request answered by `response`, in ms, as
 * client-go's `checkWait`: a 429 or a 5xx with a `Retry-After` header (seconds or an HTTP
 * date, read by core's `retryAfterMs`); undefined for any other answer (no retry).
 */
export function retryDelayMs(
  response: Pick<IncomingMessage, 'statusCode' | 'headers'>,
  nowMs: number,
): number | undefined {
  const code = response.statusCode ?? 0;
  if (code !== 429 && code < 500) return undefined;
  return retryAfterMs({ statusCode: code, headers: response.headers }, nowMs);
}
