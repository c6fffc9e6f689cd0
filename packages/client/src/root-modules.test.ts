// What importing the package's root loads: not `ws` (about 1.7 MB of heap), which the
// streaming subpath's exec, attach and port-forward load with their first WebSocket, and not
// client-node's root module. Node runs the built root with a resolve hook that records every
// module it loads.
import { fileURLToPath } from 'node:url';
import { loadedModules } from '@ctrlkit/core/testing';
import { expect, it } from 'vitest';

it('importing the root loads neither ws nor client-node’s root module', () => {
  const root = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const loaded = loadedModules([
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(root)});`,
  ]);
  // the hook works: the root and client-node's kubeconfig modules were recorded
  expect(loaded.some((url) => url.endsWith('/client/dist/index.js'))).toBe(true);
  expect(loaded.some((url) => url.includes('/@kubernetes/client-node/dist/'))).toBe(true);
  expect(loaded.filter((url) => /\/node_modules\/ws\//.test(url))).toEqual([]);
  expect(loaded.filter((url) => /\/@kubernetes\/client-node\/dist\/index\.js$/.test(url))).toEqual(
    [],
  );
});
