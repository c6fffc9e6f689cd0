//! Test support: finds processes whose command line mentions a string (Linux /proc).

import { readdirSync, readFileSync } from 'node:fs';

/** The pids of live processes whose command line contains `needle`. */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // A zombie (state Z) has exited and only waits to be reaped.
      if (cmdline.includes(needle) && !/\) Z /.test(stat)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}
