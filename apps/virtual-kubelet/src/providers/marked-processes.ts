//! Finding and killing processes by an environment entry they inherited (Linux `/proc`).

import { readdirSync, readFileSync } from 'node:fs';

/**
 * SIGKILLs every process of this machine, other than this one, whose environment holds
 * `name=value` (inherited by children and grandchildren alike). Linux only: it reads
 * `/proc/<pid>/environ`, which this user can read for its own processes; elsewhere it finds
 * nothing. Returns how many it killed.
 */
export function killMarkedProcesses(name: string, value: string): number {
  const entry = `${name}=${value}\0`;
  const marked = (environ: Buffer) =>
    environ.subarray(0, entry.length).toString() === entry || environ.includes(`\0${entry}`);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  let killed = 0;
  for (const pid of pids.map(Number)) {
    if (pid === process.pid) continue;
    try {
      if (!marked(readFileSync(`/proc/${pid}/environ`))) continue;
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return killed;
}
