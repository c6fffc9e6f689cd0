//! Stops a container's process as a kubelet does: SIGTERM, then SIGKILL after the grace period.

import type { ChildProcess } from 'node:child_process';
import type { Clock } from '@ctrlkit/core';

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone (at once if it is not running). */
export function stopProcess(
  child: ChildProcess | undefined,
  graceMs: number,
  clock: Clock,
): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve();
  return new Promise((resolve) => {
    const timer = clock.setTimer(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      timer.cancel();
      resolve();
    });
    child.kill('SIGTERM');
  });
}
