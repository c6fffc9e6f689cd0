// What the shipped bin loads: not @kubernetes/client-node's root module (its generated API is
// tens of MB of heap at import), nothing of @ctrlkit/envtest (test machinery), and no gRPC
// until a DRA plugin registers. The bin runs
// with a module resolve hook that records every module it loads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

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

/** The URLs of the modules `dist/cli.js` loads with `args`. */
function loadedModules(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vk-modules-'));
  const hook = join(dir, 'hook.mjs');
  const out = join(dir, 'loaded.txt');
  writeFileSync(hook, HOOK);
  writeFileSync(out, '');
  const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', hook, bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LOADED_MODULES_FILE: out },
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

it('the bin loads neither client-node’s root module nor envtest', () => {
  const loaded = loadedModules(['--help']);
  // the program itself was loaded (the hook works): its flag table and the runtime
  expect(
    loaded.some((url) => /\/apps\/virtual-kubelet\/dist\/cli-main-[\w-]+\.js$/.test(url)),
  ).toBe(true);
  expect(loaded.some((url) => url.includes('/runtime/dist/'))).toBe(true);
  const clientNodeRoot = loaded.filter((url) =>
    /\/@kubernetes\/client-node\/dist\/index\.js$/.test(url),
  );
  expect(clientNodeRoot).toEqual([]);
  expect(loaded.filter((url) => /envtest/.test(url))).toEqual([]);
});

it('the bin loads no gRPC before a DRA plugin registers (a few MB of heap once imported)', () => {
  const loaded = loadedModules(['--help']);
  expect(loaded.some((url) => url.includes('/node-controller/dist/dra.js'))).toBe(true);
  expect(loaded.filter((url) => /@grpc\/grpc-js|dra-kubeletplugin\/dist/.test(url))).toEqual([]);
});

it('envtest is no dependency of the shipped package (only of its tests)', () => {
  expect(Object.keys(packageJson.dependencies)).not.toContain('@ctrlkit/envtest');
});
