// The CPU time the local kube-apiserver spends, read from /proc (Linux): the server's share
// of each sync, which differs a lot between a LIST and a streaming list and between JSON
// and protobuf.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The CPU time (user + system, ms) in the text of a /proc/<pid>[/task/<tid>]/stat file. */
export function cpuMsOfStat(stat) {
  // Fields after the command name in parentheses; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The pid of the kube-apiserver serving on `port`, or undefined (no /proc, not found). */
function apiServerPid(port) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let args;
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!args[0]?.endsWith('kube-apiserver')) continue;
    if (args.includes(`--secure-port=${port}`)) return entry;
    const at = args.indexOf('--secure-port');
    if (at !== -1 && args[at + 1] === String(port)) return entry;
  }
  return undefined;
}

/**
 * A reader of the CPU time (user + system, ms) of the kube-apiserver serving on `port`:
 * `read()` returns it, or undefined where it cannot be read (the column then shows '-').
 * The resolution is 10 ms (USER_HZ).
 */
export function apiServerCpu(port) {
  const pid = apiServerPid(port);
  return {
    read() {
      if (pid === undefined) return undefined;
      try {
        return cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return undefined;
      }
    },
  };
}
