//! Runs one control plane process (etcd, kube-apiserver, a component) with its output in a log file.

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { PortInUseError } from '../errors/port-in-use-error.js';
import { ProcessExitedError } from '../errors/process-exited-error.js';
import type { ProcessGuard } from './guard.js';

/** How a process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly error?: Error;
}

/** How many log lines an error carries. */
export const LOG_TAIL_LINES = 20;

/**
 * One run of a binary in its own process group (so that a terminal's Ctrl-C reaches this
 * process first, which then stops the control plane in order), its stdout and stderr
 * appended to `logPath`.
 */
export class ManagedProcess {
  readonly name: string;
  readonly logPath: string;
  readonly #child: ChildProcess;
  readonly #guard: ProcessGuard;
  readonly exited: Promise<ProcessExit>;
  #exit: ProcessExit | undefined;
  #stopping = false;

  constructor(
    name: string,
    binary: string,
    args: readonly string[],
    logPath: string,
    guard: ProcessGuard,
    onUnexpectedExit: (error: ProcessExitedError) => void,
  ) {
    this.name = name;
    this.logPath = logPath;
    this.#guard = guard;
    const log = openSync(logPath, 'a');
    try {
      this.#child = spawn(binary, args, { detached: true, stdio: ['ignore', log, log] });
    } finally {
      closeSync(log);
    }
    const pid = this.#child.pid;
    if (pid !== undefined) guard.trackProcess(pid);
    this.exited = new Promise((resolve) => {
      this.#child.once('error', (error) => {
        // Spawning failed (ENOENT, EACCES): there will be no 'exit'.
        if (this.#child.pid === undefined)
          this.#settle({ code: null, signal: null, error }, resolve);
      });
      this.#child.once('exit', (code, signal) => this.#settle({ code, signal }, resolve));
    });
    void this.exited.then((exit) => {
      if (!this.#stopping) {
        onUnexpectedExit(
          new ProcessExitedError(this.name, exit, this.logTail(), { logPath: this.logPath }),
        );
      }
    });
  }

  /** True until the process has exited. */
  get running(): boolean {
    return this.#exit === undefined;
  }

  /** Sends SIGTERM to the process group, then SIGKILL after `timeoutMs`; resolves once it exited. */
  async stop(timeoutMs: number): Promise<ProcessExit> {
    this.#stopping = true;
    if (this.#exit !== undefined) return this.#exit;
    this.#signal(timeoutMs === 0 ? 'SIGKILL' : 'SIGTERM');
    const timer = sleep(timeoutMs, 'timeout' as const, { ref: false });
    if ((await Promise.race([this.exited, timer])) === 'timeout') this.#signal('SIGKILL');
    return this.exited;
  }

  /**
   * The error describing an exit: `PortInUseError` when the log says so, else
   * `ProcessExitedError`; either names `logPath` (default: the log itself).
   */
  exitError(
    exit: ProcessExit,
    port?: number,
    logPath = this.logPath,
  ): ProcessExitedError | PortInUseError {
    const tail = this.logTail();
    if (port !== undefined && tail.some((line) => line.includes('address already in use'))) {
      return new PortInUseError(this.name, port, tail, { logPath });
    }
    return new ProcessExitedError(this.name, exit, tail, { cause: exit.error, logPath });
  }

  /** The last lines of the log. */
  logTail(lines = LOG_TAIL_LINES): string[] {
    try {
      const size = statSync(this.logPath).size;
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      const fd = openSync(this.logPath, 'r');
      try {
        readSync(fd, buffer, 0, length, size - length);
      } finally {
        closeSync(fd);
      }
      return buffer
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(-lines);
    } catch {
      return [];
    }
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        this.#child.kill(signal);
      } catch {
        // Already gone.
      }
    }
  }

  #settle(exit: ProcessExit, resolve: (exit: ProcessExit) => void): void {
    if (this.#exit !== undefined) return;
    this.#exit = exit;
    if (this.#child.pid !== undefined) this.#guard.forgetProcess(this.#child.pid);
    resolve(exit);
  }
}
