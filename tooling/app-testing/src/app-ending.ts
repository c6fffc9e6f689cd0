//! How an app process under test ends: `stop()` or `kill()`, each followed by the same check.

import type { ChildProcess } from 'node:child_process';

/** The exit code of a process, or the signal that ended it. */
export type ExitOutcome = number | NodeJS.Signals | null;

/** The two ways to end an app under test; whichever comes first runs `check`, once. */
export interface AppEnding {
  /** SIGKILL unless it has exited, then `check`; rejects when `check` throws. */
  kill(): Promise<void>;
  /** SIGTERM unless it has exited, then `check`; resolves to the exit outcome. */
  stop(): Promise<ExitOutcome>;
}

/**
 * Ends `child` (whose exit `exited` reports) by SIGTERM or SIGKILL, then runs `check` (the
 * least-privilege check of its requests): a test that kills its app is checked as one that
 * stops it. The first call decides; later calls of either return its outcome.
 */
export function appEnding(
  child: ChildProcess,
  exited: Promise<ExitOutcome>,
  check: () => Promise<void>,
): AppEnding {
  const running = () => child.exitCode === null && child.signalCode === null;
  let ending: Promise<ExitOutcome> | undefined;
  const end = (signal: NodeJS.Signals) => {
    ending ??= (async () => {
      if (running()) child.kill(signal);
      const outcome = await exited;
      await check();
      return outcome;
    })();
    return ending;
  };
  return {
    async kill() {
      await end('SIGKILL');
    },
    stop: () => end('SIGTERM'),
  };
}
