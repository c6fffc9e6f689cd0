// The shared vitest preset: unit, property and integration tests live next to the code.
import { defineConfig, mergeConfig } from 'vitest/config';

/**
 * Builds a package's vitest config from the shared preset.
 * @param {import('vitest/config').UserConfig} [overrides] package-specific settings, merged last
 */
export function ctrlkitVitestConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        environment: 'node',
        testTimeout: 30_000,
        hookTimeout: 120_000,
        // The JSON results let the repository's test command print one total line.
        reporters: ['default', 'json'],
        outputFile: { json: '.vitest/results.json' },
      },
    }),
    overrides,
  );
}
