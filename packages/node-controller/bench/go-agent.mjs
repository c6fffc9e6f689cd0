// Go virtual-kubelet's node package v1.13.0 as a bench agent (tooling/go-bench/virtual-kubelet):
// built with the machine's Go into ~/.cache/ctrlkit/go-bench, never into the repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds the Go agent; its path, or undefined (with the reason pushed onto `notes`). */
export function buildGo(notes) {
  const source = join(here, '../../../tooling/go-bench/virtual-kubelet');
  const binary = join(homedir(), '.cache/ctrlkit/go-bench/virtual-kubelet/vk-bench');
  if (spawnSync('go', ['version']).status !== 0) {
    notes.push('Go column skipped: no Go toolchain on PATH.');
    return undefined;
  }
  mkdirSync(dirname(binary), { recursive: true });
  try {
    execFileSync('go', ['build', '-o', binary, '.'], { cwd: source, stdio: 'inherit' });
  } catch (error) {
    if (!existsSync(binary)) {
      notes.push(`Go column skipped: go build failed (${error.message.split('\n')[0]}).`);
      return undefined;
    }
  }
  return binary;
}
