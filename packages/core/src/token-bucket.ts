//! A token bucket with reservations: the behaviour of golang.org/x/time/rate's Limiter.

import type { Clock } from './clock.js';

/**
 * Refills at `qps` tokens a second up to `burst`; starts full. The one bucket behind
 * workqueue's `newBucketRateLimiter` and the client's `qps`/`burst` limit; callers check
 * `qps` (positive, or `Infinity` for no limit) and `burst` (an integer, at least 1) before making one.
 */
export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, clock: Clock) {
    this.#qps = qps;
    this.#burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#last = clock.now();
  }

  /** Takes one token now and returns how many milliseconds until it may be used. */
  reserve(): number {
    if (this.#qps === Number.POSITIVE_INFINITY) return 0;
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#last);
    const tokens = Math.min(this.#burst, this.#tokens + (elapsed / 1000) * this.#qps) - 1;
    this.#tokens = tokens;
    this.#last = now;
    return tokens < 0 ? (-tokens / this.#qps) * 1000 : 0;
  }
}
