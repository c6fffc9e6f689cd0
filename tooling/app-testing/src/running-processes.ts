//! Counts the processes of this machine that run a program with a given first argument (Linux /proc).

import { readdirSync, readFileSync } from 'node:fs';

/**
 * How many processes run `program` (their argv[0] ends with it) with `firstArg` as argv[1]:
 * e.g. `runningProcesses('sleep', marker)` for a container of the process provider started
 * as `sleep <marker>`, a number of seconds no other process sleeps for.
 */
export function runningProcesses(program: string, firstArg: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith(program) && argv[1] === firstArg) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}
