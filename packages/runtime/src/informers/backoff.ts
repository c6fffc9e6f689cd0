//! Exponential backoff with jitter and a reset after a quiet period (client-go's reflector backoff).

import { type Clock, InvalidArgumentError, realClock, sleep } from '@ctrlkit/core';

/** The first wait after a failure: 800 ms (client-go's reflector). */
export const DEFAULT_BACKOFF_INITIAL_MS = 800;
/** The largest base wait: 30 s. */
export const DEFAULT_BACKOFF_MAX_MS = 30_000;
/** Each consecutive failure multiplies the base wait by 2. */
export const DEFAULT_BACKOFF_FACTOR = 2;
/** Each wait is `base × (1 + jitter × random)`: 1.0, so waits lie in `[base, 2·base)`. */
export const DEFAULT_BACKOFF_JITTER = 1;
/** After this long without a failure the base wait starts again at the initial value: 2 min. */
export const DEFAULT_BACKOFF_RESET_MS = 120_000;

/** Options of a {@link Backoff}; every field is optional. */
export interface BackoffOptions {
  /** The first base wait, in ms. Default {@link DEFAULT_BACKOFF_INITIAL_MS}. */
  initialMs?: number;
  /** The cap of the base wait, in ms (jitter comes on top). Default {@link DEFAULT_BACKOFF_MAX_MS}. */
  maxMs?: number;
  /** The multiplier per consecutive failure, ≥ 1. Default {@link DEFAULT_BACKOFF_FACTOR}. */
  factor?: number;
  /** The jitter factor, ≥ 0; `0` makes waits exact. Default {@link DEFAULT_BACKOFF_JITTER}. */
  jitter?: number;
  /** Quiet time after which the base wait resets, in ms. Default {@link DEFAULT_BACKOFF_RESET_MS}. */
  resetMs?: number;
  /** Source of time. Default: the real clock. */
  clock?: Clock;
  /** Source of randomness in `[0, 1)`. Default `Math.random`. */
  random?: () => number;
}

/**
 * Exponential backoff as client-go's reflector uses it
 * (`wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)`): the base wait starts at `initialMs` and doubles per failure up to
 * `maxMs`; each wait adds `jitter × random × base`; a failure that comes more than `resetMs`
 * after the previous one starts over at `initialMs`.
 */
export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  readonly jitter: number;
  readonly resetMs: number;
  readonly #clock: Clock;
  readonly #random: () => number;
  #base: number | undefined;
  #lastAt = Number.NEGATIVE_INFINITY;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = positive('initialMs', options.initialMs, DEFAULT_BACKOFF_INITIAL_MS);
    this.maxMs = positive('maxMs', options.maxMs, DEFAULT_BACKOFF_MAX_MS);
    if (this.maxMs < this.initialMs) {
      throw new InvalidArgumentError(
        'maxMs',
        `must be ≥ initialMs (${this.initialMs}), got ${this.maxMs}`,
      );
    }
    this.factor = positive('factor', options.factor, DEFAULT_BACKOFF_FACTOR);
    if (this.factor < 1)
      throw new InvalidArgumentError('factor', `must be ≥ 1, got ${this.factor}`);
    this.jitter = nonNegative('jitter', options.jitter, DEFAULT_BACKOFF_JITTER);
    this.resetMs = nonNegative('resetMs', options.resetMs, DEFAULT_BACKOFF_RESET_MS);
    this.#clock = options.clock ?? realClock;
    this.#random = options.random ?? Math.random;
  }

  /** The wait before the next attempt, in ms; counts one failure. */
  next(): number {
    const now = this.#clock.now();
    if (this.#base === undefined || now - this.#lastAt > this.resetMs) this.#base = this.initialMs;
    else this.#base = Math.min(this.#base * this.factor, this.maxMs);
    this.#lastAt = now;
    return this.#base * (1 + this.jitter * this.#random());
  }

  /** Forgets past failures: the next wait is based on `initialMs` again. */
  reset(): void {
    this.#base = undefined;
  }

  /** Waits {@link next}() ms on the clock; resolves early (without throwing) when `signal` aborts. */
  wait(signal: AbortSignal): Promise<number> {
    const delay = this.next();
    return sleep(this.#clock, delay, signal).then(() => delay);
  }
}

function positive(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(field, `must be a finite number > 0, got ${String(value)}`);
  }
  return value;
}

function nonNegative(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(field, `must be a finite number ≥ 0, got ${String(value)}`);
  }
  return value;
}
