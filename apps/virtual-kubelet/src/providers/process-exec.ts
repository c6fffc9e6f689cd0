//! Runs an exec'd command as a child process with a container's environment, piped to the client's streams.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { AttachIO } from '@ctrlkit/node-controller';

/**
 * Spawns `command` (file and arguments, no shell) with `env`, pipes `attach`'s stdin to
 * it and its stdout and stderr (with a TTY: both) to `attach`, and resolves to its exit
 * code (128 + the signal's number when a signal ended it) once it exited and its output
 * was read. Rejects when it could not be started (e.g. no such executable), with the
 * system's message. `signal` kills it (SIGKILL): the client went.
 */
export function execProcess(
  command: readonly string[],
  env: Record<string, string>,
  attach: AttachIO,
  signal: AbortSignal,
): Promise<number> {
  const [file = '', ...args] = command;
  const stdin = attach.stdin();
  const stdout = attach.stdout();
  const stderr = attach.tty() ? stdout : attach.stderr();
  signal.throwIfAborted();
  const child = spawn(file, args, { env, stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  const kill = (): void => {
    child.kill('SIGKILL');
  };
  signal.addEventListener('abort', kill, { once: true });
  if (stdin !== undefined && child.stdin !== null) {
    // The command may exit before it read everything: a write after that is not an error.
    child.stdin.on('error', () => {});
    stdin.pipe(child.stdin);
  }
  if (stdout === undefined) child.stdout?.resume();
  else child.stdout?.pipe(stdout, { end: false });
  if (stderr === undefined) child.stderr?.resume();
  else child.stderr?.pipe(stderr, { end: false });
  return new Promise<number>((resolve, reject) => {
    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
    });
    child.once('error', (error) => {
      if (spawned) return;
      signal.removeEventListener('abort', kill);
      stdin?.unpipe();
      reject(new Error(`exec: ${JSON.stringify(file)}: ${error.message}`, { cause: error }));
    });
    child.once('close', (code, signalName) => {
      signal.removeEventListener('abort', kill);
      stdin?.unpipe();
      if (!spawned) return;
      resolve(code ?? 128 + (signalName ? (constants.signals[signalName] ?? 0) : 0));
    });
  });
}
