/** Where expectations read the time: a structural clock, real by default, fake in tests. */

/**
 * A source of wall-clock time in milliseconds. Anything with a `now()` works, e.g.
 * `FakeClock` from `@ctrlkit/expectations/testing`.
 */
export interface Clock {
  /** The current time in ms (only differences between two readings matter). */
  now(): number;
}

/** The real clock: `Date.now()`. The default wherever a `clock` option is not given. */
export const realClock: Clock = Object.freeze({ now: () => Date.now() });
