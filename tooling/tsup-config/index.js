// The shared tsup preset: ESM for Node 22+, type declarations, source maps, a clean dist/.
import { defineConfig } from 'tsup';

/**
 * Builds a package's tsup config from the shared preset.
 * @param {string[]} entry the entry points, e.g. ['src/index.ts', 'src/testing.ts']
 * @param {import('tsup').Options} [overrides] package-specific settings, applied last
 */
export function ctrlkitTsupConfig(entry, overrides = {}) {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node22',
    dts: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
    ...overrides,
  });
}
