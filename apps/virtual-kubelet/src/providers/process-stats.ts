//! CPU and memory of a process, read from Linux's /proc.

import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (`USER_HZ`, 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time of process `pid` and of its waited-for children in ns (utime + stime + cutime +
 * cstime of /proc/<pid>/stat); 0 when it cannot be read.
 */
export function processCpuNs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of the line, 12-15 after the name.
    const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    return Number.isFinite(ticks) ? (ticks * 1e9) / USER_HZ : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of process `pid` in bytes (VmRSS of /proc/<pid>/status); 0 when it cannot be read. */
export function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
