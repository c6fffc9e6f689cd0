//! For the app's integration tests: a bin run to its end (--help, ctrlkit-migrate). The controller itself runs as its deploy/ ServiceAccount through @ctrlkit/app-testing.

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../dist');

/** Runs `dist/<bin>.js` to its end: exit code, stdout, stderr. */
export async function runBin(
  bin: 'main' | 'migrate' | 'forklift-api-main',
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
