//! Waits for a started process to answer its readiness probe, and keeps its log when it does not.

import { copyFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatLogTail } from '../errors/envtest-error.js';
import { NotReadyError } from '../errors/not-ready-error.js';
import { PortInUseError } from '../errors/port-in-use-error.js';
import type { ManagedProcess, ProcessExit } from './process.js';

/** How often readiness is polled, in ms. */
const POLL_MS = 100;
/** Attempts with fresh ports when a picked port was taken meanwhile. */
const PORT_ATTEMPTS = 3;

/** A readiness probe: `undefined` when ready, else what is wrong. */
export type Probe = () => Promise<string | undefined>;

/**
 * Polls `probe` until it reports ready. When `process` exits first, throws its
 * `ProcessExitedError` or `PortInUseError`; after `timeoutMs`, `NotReadyError` naming
 * `what`. Either way the process's log is first copied to `keptLogPath` (it outlives the
 * temporary folder) and the error names that copy.
 */
export async function waitReady(
  process: ManagedProcess,
  port: number,
  what: string,
  probe: Probe,
  options: { readonly timeoutMs: number; readonly keptLogPath: string },
): Promise<void> {
  const { timeoutMs } = options;
  const deadline = performance.now() + timeoutMs;
  let problem = 'not checked yet';
  let exit: ProcessExit | undefined;
  void process.exited.then((e) => {
    exit = e;
  });
  for (;;) {
    if (exit !== undefined) {
      throw process.exitError(exit, port, await keepLog(process, options.keptLogPath));
    }
    const result = await probe();
    if (result === undefined) return;
    problem = result;
    if (performance.now() >= deadline) {
      const logPath = await keepLog(process, options.keptLogPath);
      const log = formatLogTail(process.name, process.logTail(), logPath);
      throw new NotReadyError(what, timeoutMs, `${problem}; ${log}`, { logPath });
    }
    await Promise.race([sleep(POLL_MS), process.exited]);
  }
}

/**
 * Whether a start attempt that failed with `error` is retried on another port: only for
 * `PortInUseError` on a picked (not fixed) port, up to 3 attempts. The log kept for a
 * retried attempt is removed.
 */
export async function retryOnOtherPort(
  error: unknown,
  attempt: number,
  fixedPort?: number,
): Promise<boolean> {
  if (!PortInUseError.isInstance(error) || fixedPort !== undefined || attempt >= PORT_ATTEMPTS)
    return false;
  if (error.logPath !== undefined) await rm(error.logPath, { force: true });
  return true;
}

/** Copies the log to `keptLogPath` and returns that; the log's own path if copying fails. */
async function keepLog(process: ManagedProcess, keptLogPath: string): Promise<string> {
  try {
    await copyFile(process.logPath, keptLogPath);
    return keptLogPath;
  } catch {
    return process.logPath;
  }
}
