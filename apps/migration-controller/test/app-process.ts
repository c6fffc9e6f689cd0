//! For the app's integration tests: the built binaries run as child processes against the test control plane.

import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../dist');

/** A running `ctrlkit-migration-controller`, its exit and its log lines. */
export interface AppProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  logs: string[];
}

/** Starts `dist/<bin>.js` with `args`, collecting stdout and stderr lines. */
export function startBin(bin: 'main' | 'migrate', args: readonly string[]): AppProcess {
  const logs: string[] = [];
  const child = spawn(process.execPath, [join(dist, `${bin}.js`), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, logs };
}

/** Runs `dist/<bin>.js` to its end: exit code, stdout, stderr. */
export async function runBin(
  bin: 'main' | 'migrate',
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(dist, `${bin}.js`), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}
