//! Wall-clock time that moves with the injected clock.

import type { Clock } from '@ctrlkit/workqueue';

/**
 * A function giving the wall time: the real time when made, advanced by `clock` since, so a
 * fake clock moves it too (the runtime's EventRecorder does the same).
 */
export function newWallTime(clock: Clock): () => Date {
  const origin = Date.now() - clock.now();
  return () => new Date(origin + clock.now());
}
