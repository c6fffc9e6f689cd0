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

/**
 * A package config with two projects: `unit` (every `*.test.ts` but integration tests,
 * no control plane) and `integration` (`*.int.test.ts`), which gets one real control plane
 * for the run from `globalSetup`. `vitest run --project unit` skips the control plane.
 * @param {string} globalSetup the global setup module, e.g. '@ctrlkit/envtest/global-setup'
 * @param {import('vitest/config').UserConfig['test']} [integration] settings of the integration project
 */
export function ctrlkitVitestProjects(globalSetup, integration = {}) {
  return ctrlkitVitestConfig({
    test: {
      projects: [
        {
          test: {
            name: 'unit',
            environment: 'node',
            include: ['src/**/*.test.ts'],
            exclude: ['src/**/*.int.test.ts'],
          },
        },
        {
          test: {
            name: 'integration',
            environment: 'node',
            include: ['src/**/*.int.test.ts'],
            globalSetup: [globalSetup],
            // Integration tests start processes and wait on a real apiserver.
            testTimeout: 60_000,
            hookTimeout: 120_000,
            ...integration,
          },
        },
      ],
    },
  });
}
