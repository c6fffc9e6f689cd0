// A clock that only moves when a test steps it.

import type { Clock, Timer } from '../clock.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';

/** Where a {@link FakeClock} starts by default: 2023-11-14T22:13:20.000Z, in epoch ms. */
export const DEFAULT_FAKE_CLOCK_START_MS = 1_700_000_000_000;

interface Scheduled {
  readonly id: number;
  at: number;
  readonly periodMs: number | undefined;
  readonly callback: () => void;
}

/**
 * A {@link Clock} for tests: time stands still until {@link FakeClock.step} or
 * {@link FakeClock.setTime} moves it, and then due timers fire in time order.
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 0;
  readonly #timers = new Map<number, Scheduled>();

  /** @param startMs - the initial time, in epoch milliseconds (default {@link DEFAULT_FAKE_CLOCK_START_MS}). */
  constructor(startMs = DEFAULT_FAKE_CLOCK_START_MS) {
    if (!Number.isFinite(startMs)) {
      throw new InvalidArgumentError('startMs', `expected a finite number, got ${startMs}`);
    }
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, delayMs: number): Timer {
    return this.#schedule(callback, delayMs, undefined);
  }

  setTicker(callback: () => void, periodMs: number): Timer {
    if (!(periodMs > 0))
      throw new InvalidArgumentError('periodMs', `expected > 0, got ${periodMs}`);
    return this.#schedule(callback, periodMs, periodMs);
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  step(ms: number): void {
    if (!(ms >= 0)) throw new InvalidArgumentError('ms', `expected a number >= 0, got ${ms}`);
    this.setTime(this.#now + ms);
  }

  /** Moves time to `ms` (never backwards), firing every timer that falls due, in order. */
  setTime(ms: number): void {
    if (!(ms >= this.#now)) {
      throw new InvalidArgumentError('ms', `time cannot go back from ${this.#now} to ${ms}`);
    }
    for (;;) {
      const next = this.#earliestDue(ms);
      if (next === undefined) break;
      this.#now = next.at;
      if (next.periodMs === undefined) this.#timers.delete(next.id);
      else next.at += next.periodMs;
      next.callback();
    }
    this.#now = ms;
  }

  /** How many timers and tickers are scheduled and not cancelled. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  #schedule(callback: () => void, delayMs: number, periodMs: number | undefined): Timer {
    const id = this.#nextId++;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, delayMs), periodMs, callback });
    return { cancel: () => void this.#timers.delete(id) };
  }

  #earliestDue(limit: number): Scheduled | undefined {
    let earliest: Scheduled | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.at <= limit && (earliest === undefined || timer.at < earliest.at)) earliest = timer;
    }
    return earliest;
  }
}
