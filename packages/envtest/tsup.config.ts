import { defineConfig } from 'tsup';

export default defineConfig({
  // src/cli.ts starts with `#!/usr/bin/env node`, which esbuild keeps (and tsup makes dist/cli.js executable).
  entry: ['src/index.ts', 'src/vitest.ts', 'src/global-setup.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node22',
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
});
