// What a Node program loads: the one set-up of the tests that keep heavy modules out of a
// package's root or a bin's start.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A resolve hook that appends each module's URL to the file in `LOADED_MODULES_FILE`. */
const HOOK = `
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    appendFileSync(process.env.LOADED_MODULES_FILE, resolved.url + '\\n');
    return resolved;
  },
});
`;

/**
 * Runs Node with `args` (a script and its arguments, or `-e` and code) under a resolve hook,
 * and returns the URL of every module it loaded, in order. Throws when Node exits non-zero
 * (with its stderr) or runs past 30 s.
 */
export function loadedModules(args: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'loaded-modules-'));
  const hook = join(dir, 'hook.mjs');
  const out = join(dir, 'loaded.txt');
  writeFileSync(hook, HOOK);
  writeFileSync(out, '');
  const run = spawnSync(process.execPath, ['--import', hook, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LOADED_MODULES_FILE: out },
    timeout: 30_000,
  });
  if (run.status !== 0) {
    throw new Error(
      `node ${args.join(' ')} exited with ${run.status ?? run.signal}: ${run.stderr}`,
    );
  }
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}
