//! Waits on the injected clock, cut short by a signal.

import type { Clock } from '@ctrlkit/workqueue';

/** Resolves after `ms` on `clock`, or at once when `signal` aborts. */
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
