//! Helpers shared by the unit tests: let promises settle while a fake clock moves.

import type { FakeClock } from '@ctrlkit/core/testing';

/** Lets pending promise callbacks and I/O callbacks run. */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Moves `clock` forward by `ms` in `stepMs` steps, letting promises settle after each. */
export async function advance(clock: FakeClock, ms: number, stepMs = 1): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    clock.step(Math.min(stepMs, ms - done));
    await flush(3);
  }
}

/** Steps `clock` until `predicate` holds; throws after `limitMs` of fake time. */
export async function advanceUntil(
  clock: FakeClock,
  predicate: () => boolean,
  limitMs = 120_000,
  stepMs = 10,
): Promise<void> {
  await flush();
  for (let waited = 0; !predicate(); waited += stepMs) {
    if (waited > limitMs) throw new Error(`condition not met after ${limitMs} ms of fake time`);
    clock.step(stepMs);
    await flush(3);
  }
}
