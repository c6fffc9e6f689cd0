//! Makes sure control plane processes and temporary folders do not outlive this process.
//
// Three layers, so that nothing is left behind however this process ends:
// 1. `stop()` (the normal path) stops processes gracefully and removes folders;
// 2. on `exit`, and on SIGINT/SIGTERM/SIGHUP when nobody else handles them (then the signal
//    would end the process), this process kills the process groups it started and removes
//    their folders synchronously, then re-raises the signal;
// 3. a small watchdog process (the reaper) holds a pipe from this process: when the pipe
//    closes because this process died (even by SIGKILL), it kills the groups and removes
//    the folders.

import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const REAPER_SOURCE = `
const { rmSync } = require('node:fs');
const pids = new Set();
const dirs = new Set();
let buffer = '';
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf('\\n'); i >= 0; i = buffer.indexOf('\\n')) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    const space = line.indexOf(' ');
    const op = line.slice(0, space);
    const arg = line.slice(space + 1);
    if (op === '+pid') pids.add(Number(arg));
    else if (op === '-pid') pids.delete(Number(arg));
    else if (op === '+dir') dirs.add(arg);
    else if (op === '-dir') dirs.delete(arg);
  }
});
process.stdin.on('end', () => {
  for (const pid of pids) {
    try { process.kill(-pid, 'SIGKILL'); } catch {}
  }
  setTimeout(() => {
    for (const dir of dirs) {
      try { rmSync(dir, { recursive: true, force: true }); } catch {}
    }
    process.exit(0);
  }, pids.size > 0 ? 300 : 0);
});
`;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const active = new Set<ProcessGuard>();

function onExit(): void {
  for (const guard of active) guard.cleanupSync();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another handler owns this signal and is expected to call stop(); the exit handler
  // and the reaper remain as backstops.
  if (process.listenerCount(signal) > 1) return;
  // Only this handler listens, so the signal would have ended the process: clean up, then
  // let the signal do that.
  for (const guard of active) guard.cleanupSync();
  uninstall();
  process.kill(process.pid, signal);
}

function install(): void {
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  process.off('exit', onExit);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** Tracks the process groups and folders of one control plane until `release()`. */
export class ProcessGuard {
  readonly #pids = new Set<number>();
  readonly #directories = new Set<string>();
  readonly #reaper: ChildProcess | undefined;

  constructor() {
    if (active.size === 0) install();
    active.add(this);
    try {
      this.#reaper = spawn(process.execPath, ['-e', REAPER_SOURCE], {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      this.#reaper.on('error', () => {});
      this.#reaper.stdin!.on('error', () => {});
      this.#reaper.unref();
      (this.#reaper.stdin as unknown as { unref?: () => void }).unref?.();
    } catch {
      // Without a reaper, layers 1 and 2 still apply.
    }
  }

  trackProcess(pid: number): void {
    this.#pids.add(pid);
    this.#send(`+pid ${pid}`);
  }

  forgetProcess(pid: number): void {
    this.#pids.delete(pid);
    this.#send(`-pid ${pid}`);
  }

  trackDirectory(path: string): void {
    this.#directories.add(path);
    this.#send(`+dir ${path}`);
  }

  forgetDirectory(path: string): void {
    this.#directories.delete(path);
    this.#send(`-dir ${path}`);
  }

  /** Stops guarding; the caller has stopped every process and removed every folder. */
  release(): void {
    active.delete(this);
    if (active.size === 0) uninstall();
    this.#reaper?.stdin?.end();
  }

  /** Kills every tracked process group and removes every tracked folder, synchronously. */
  cleanupSync(): void {
    for (const pid of this.#pids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.#pids.clear();
    for (const directory of this.#directories) {
      try {
        rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // The reaper retries after this process has exited.
      }
    }
  }

  #send(line: string): void {
    const stdin = this.#reaper?.stdin;
    if (stdin && !stdin.destroyed && stdin.writable) stdin.write(`${line}\n`);
  }
}
