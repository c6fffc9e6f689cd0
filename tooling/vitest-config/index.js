// The shared vitest preset: unit, property and integration tests live next to the code.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** How many files of the side-by-side project run at once by default: what 2 cores serve. */
export const SIDE_BY_SIDE_WORKERS = 2;

/**
 * A package config with two projects: `unit` (every `*.test.ts` but integration tests,
 * no control plane) and `integration` (`*.int.test.ts`), which gets one real control plane
 * for the run from `globalSetup`. `vitest run --project unit` skips the control plane.
 *
 * With `sideBySide`, the integration files it names (globs; files that mostly wait: lease
 * expiry, restarts, timeouts) leave `integration` for a third project,
 * `integration-side-by-side`: its files run at once, `maxWorkers` at a time (default
 * {@link SIDE_BY_SIDE_WORKERS}), each with a control plane of its own from
 * @ctrlkit/envtest (control-plane-per-file.js), after the unit files and before the others.
 * `vitest run --project 'integration*'` runs both integration projects.
 * @param {string} globalSetup the global setup module, e.g. '@ctrlkit/envtest/global-setup'
 * @param {import('vitest/config').UserConfig['test']} [integration] settings of the integration project
 * @param {{ include: string[], maxWorkers?: number }} [sideBySide] files that get a control plane each
 */
export function ctrlkitVitestProjects(globalSetup, integration = {}, sideBySide = undefined) {
  const projects = [
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
        exclude: sideBySide?.include ?? [],
        globalSetup: [globalSetup],
        // Integration tests start processes and wait on a real apiserver.
        testTimeout: 60_000,
        hookTimeout: 120_000,
        ...integration,
      },
    },
  ];
  if (sideBySide !== undefined) projects.push(sideBySideProject(integration, sideBySide));
  return ctrlkitVitestConfig({ test: { projects } });
}

function sideBySideProject(integration, { include, maxWorkers = SIDE_BY_SIDE_WORKERS }) {
  if (!Array.isArray(include) || include.length === 0) {
    throw new Error('ctrlkitVitestProjects: sideBySide.include must name at least one glob');
  }
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
    throw new Error(`ctrlkitVitestProjects: sideBySide.maxWorkers must be >= 1, got ${maxWorkers}`);
  }
  return {
    test: {
      testTimeout: 60_000,
      hookTimeout: 120_000,
      ...integration,
      name: 'integration-side-by-side',
      environment: 'node',
      include,
      setupFiles: [fileURLToPath(new URL('./control-plane-per-file.js', import.meta.url))],
      env: { CTRLKIT_ENVTEST_VITEST_MODULE: resolveFromPackage('@ctrlkit/envtest/vitest') },
      fileParallelism: true,
      maxWorkers,
      // Its own group (vitest runs groups one after another; a group has one maxWorkers).
      sequence: { groupOrder: 1 },
    },
  };
}

/** Resolves `specifier` as the package whose vitest config is loading (the working folder) would. */
function resolveFromPackage(specifier) {
  const from = join(process.cwd(), 'package.json');
  try {
    return createRequire(from).resolve(specifier);
  } catch (error) {
    throw new Error(
      `ctrlkitVitestProjects: sideBySide needs ${specifier}, which ${from} cannot resolve ` +
        `(add @ctrlkit/envtest to its devDependencies): ${error.message}`,
    );
  }
}
