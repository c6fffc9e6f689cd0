//! The process provider's ping: can this node still start a child process and see it exit 0?

import { spawn } from 'node:child_process';

/** The ping's default command: this Node's `--version`, present wherever the provider runs. */
export const DEFAULT_PING_COMMAND: readonly string[] = [process.execPath, '--version'];

/**
 * Runs `command` (file and arguments, no shell) as a child process and resolves when it exits
 * 0: what every container of the process provider needs (fork and exec work, the process table
 * and file descriptors are not exhausted). Rejects with the spawn error, with the exit code or
 * signal, or with `signal`'s reason when it aborts first (the child is then killed).
 */
export function runPingCommand(command: readonly string[], signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const [file = '', ...args] = command;
  return new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    const onAbort = (): void => {
      child.kill('SIGKILL');
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(new Error(`process provider ping: cannot start ${file}: ${error.message}`));
    });
    child.once('exit', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      if (code === 0) resolve();
      else {
        const how = killedBy === null ? `exit code ${code}` : `signal ${killedBy}`;
        reject(new Error(`process provider ping: ${file} ended with ${how}`));
      }
    });
  });
}
