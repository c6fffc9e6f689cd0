// Polling until a condition holds: the one `waitFor` of ctrlkit's tests.

import { realClock, sleep } from '../clock.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';

/** How long {@link waitFor} polls before it gives up, when not told: 60 s. */
export const DEFAULT_WAIT_FOR_TIMEOUT_MS = 60_000;
/** How long {@link waitFor} waits between two checks, when not told: 50 ms. */
export const DEFAULT_WAIT_FOR_INTERVAL_MS = 50;

/** Options of {@link waitFor}. */
export interface WaitForOptions<T> {
  /** When `check`'s value counts as done. Default: when it is truthy. */
  until?: (value: T) => boolean;
  /** Give up after this many ms. Default {@link DEFAULT_WAIT_FOR_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Pause between checks, in ms. Default {@link DEFAULT_WAIT_FOR_INTERVAL_MS}. */
  intervalMs?: number;
}

/**
 * Calls `check` until its value is done (truthy, or what `until` accepts) and returns that
 * value; a check that throws counts as not done yet. After `timeoutMs` it throws an error
 * naming `what`, with the last value or error seen. Polls on real time: it is for tests
 * against a real control plane or a process, where a fake clock does not reach.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  options: WaitForOptions<T> = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_FOR_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_WAIT_FOR_INTERVAL_MS;
  if (!(timeoutMs >= 0))
    throw new InvalidArgumentError('timeoutMs', `expected >= 0, got ${timeoutMs}`);
  if (!(intervalMs > 0))
    throw new InvalidArgumentError('intervalMs', `expected > 0, got ${intervalMs}`);
  const until = options.until ?? ((value: T) => Boolean(value));
  const deadline = realClock.now() + timeoutMs;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await check();
      if (until(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (realClock.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${describe(last)}`);
    await sleep(realClock, intervalMs, new AbortController().signal);
  }
}

function describe(last: { value: unknown } | { error: unknown } | undefined): string {
  if (last === undefined) return '';
  if ('error' in last) {
    return `: the last check threw ${last.error instanceof Error ? last.error.message : String(last.error)}`;
  }
  let text: string;
  try {
    text = JSON.stringify(last.value) ?? String(last.value);
  } catch {
    text = String(last.value);
  }
  return `: the last value was ${text.length > 3000 ? `${text.slice(0, 3000)}…` : text}`;
}
