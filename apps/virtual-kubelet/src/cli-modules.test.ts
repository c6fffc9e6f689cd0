// What the shipped bin loads: not @kubernetes/client-node's root module (its generated API is
// tens of MB of heap at import), nothing of @ctrlkit/envtest (test machinery), and no gRPC
// until a DRA plugin registers. The bin runs
// with a module resolve hook that records every module it loads.
import { fileURLToPath } from 'node:url';
import { loadedModules } from '@ctrlkit/core/testing';
import { expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

it('the bin loads neither client-node’s root module nor envtest', () => {
  const loaded = loadedModules([bin, '--help']);
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
  const loaded = loadedModules([bin, '--help']);
  expect(loaded.some((url) => url.includes('/node-controller/dist/dra.js'))).toBe(true);
  expect(loaded.filter((url) => /@grpc\/grpc-js|dra-kubeletplugin\/dist/.test(url))).toEqual([]);
});

it('envtest is no dependency of the shipped package (only of its tests)', () => {
  expect(Object.keys(packageJson.dependencies)).not.toContain('@ctrlkit/envtest');
});
