// The clock every timing in ctrlkit reads, injectable so tests never wait for real time.

/** A scheduled callback; `cancel` is harmless after it fired. */
export interface Timer {
  /** Stops the timer; the callback will not run (again). */
  cancel(): void;
}

/**
 * The source of time for every ctrlkit package: milliseconds and timers. One clock serves
 * both intervals (`b.now() - a.now()`) and wall time (`new Date(clock.now())`).
 * The real clock's timers never keep the process alive.
 */
export interface Clock {
  /**
   * Milliseconds since the Unix epoch, never decreasing (a double: at today's epoch it
   * resolves about 0.25 µs).
   */
  now(): number;
  /** Runs `callback` once, `delayMs` from now. */
  setTimer(callback: () => void, delayMs: number): Timer;
  /** Runs `callback` every `periodMs`, until cancelled. */
  setTicker(callback: () => void, periodMs: number): Timer;
}

/**
 * The clock of the running process: `performance.timeOrigin + performance.now()`, epoch
 * milliseconds that never go back when the system clock is set back (it may drift from
 * `Date.now()` by that much), and unref'd Node timers.
 */
export const realClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer(callback, delayMs) {
    // A deadline computed from epoch-scale readings can be a hair in the past: run it now,
    // without Node's TimeoutNegativeWarning.
    const handle = setTimeout(callback, Math.max(0, delayMs));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
  setTicker(callback, periodMs) {
    const handle = setInterval(callback, periodMs);
    handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};

/** Resolves after `ms` on `clock`, or as soon as `signal` aborts (never rejects). */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      timer.cancel();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimer(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
