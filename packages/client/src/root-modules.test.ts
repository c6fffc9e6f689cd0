// What importing the package's root loads: not `ws` (about 1.7 MB of heap), which the
// streaming subpath's exec, attach and port-forward load with their first WebSocket, and not
// client-node's root module. Node runs the built root with a resolve hook that records every
// module it loads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

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

it('importing the root loads neither ws nor client-node’s root module', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-modules-'));
  const hook = join(dir, 'hook.mjs');
  const out = join(dir, 'loaded.txt');
  writeFileSync(hook, HOOK);
  writeFileSync(out, '');
  const root = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const run = spawnSync(
    process.execPath,
    ['--import', hook, '--input-type=module', '-e', `await import(${JSON.stringify(root)});`],
    {
      encoding: 'utf8',
      env: { ...process.env, LOADED_MODULES_FILE: out },
      timeout: 30_000,
    },
  );
  expect(run.status, run.stderr).toBe(0);
  const loaded = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  // the hook works: the root and client-node's kubeconfig modules were recorded
  expect(loaded.some((url) => url.endsWith('/client/dist/index.js'))).toBe(true);
  expect(loaded.some((url) => url.includes('/@kubernetes/client-node/dist/'))).toBe(true);
  expect(loaded.filter((url) => /\/node_modules\/ws\//.test(url))).toEqual([]);
  expect(loaded.filter((url) => /\/@kubernetes\/client-node\/dist\/index\.js$/.test(url))).toEqual(
    [],
  );
});
