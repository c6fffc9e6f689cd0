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
 * expiry, restarts, timeouts) leave `integration` and run at once, `maxWorkers` at a time
 * (default {@link SIDE_BY_SIDE_WORKERS}), after the unit files and before the others:
 * `include` in the project `integration-side-by-side`, each with a control plane of its own
 * from @ctrlkit/envtest (control-plane-per-file.js); `ownControlPlane` (files that start
 * their own and never use the shared one) in `integration-own-plane`, with none from the
 * setup. `vitest run --project 'integration*'` runs every integration project.
 * @param {string} globalSetup the global setup module, e.g. '@ctrlkit/envtest/global-setup'
 * @param {import('vitest/config').UserConfig['test']} [integration] settings of the integration project
 * @param {{ include?: string[], ownControlPlane?: string[], maxWorkers?: number }} [sideBySide]
 *   files that run at once
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
        exclude: [...(sideBySide?.include ?? []), ...(sideBySide?.ownControlPlane ?? [])],
        globalSetup: [globalSetup],
        // Integration tests start processes and wait on a real apiserver.
        testTimeout: 60_000,
        hookTimeout: 120_000,
        ...integration,
      },
    },
  ];
  if (sideBySide !== undefined) projects.push(...sideBySideProjects(integration, sideBySide));
  return ctrlkitVitestConfig({ test: { projects } });
}

function sideBySideProjects(
  integration,
  { include = [], ownControlPlane = [], maxWorkers = SIDE_BY_SIDE_WORKERS },
) {
  if (include.length === 0 && ownControlPlane.length === 0) {
    throw new Error(
      'ctrlkitVitestProjects: sideBySide names no file (give include or ownControlPlane globs)',
    );
  }
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
    throw new Error(`ctrlkitVitestProjects: sideBySide.maxWorkers must be >= 1, got ${maxWorkers}`);
  }
  const project = (name, files, extra) => ({
    test: {
      testTimeout: 60_000,
      hookTimeout: 120_000,
      ...integration,
      name,
      environment: 'node',
      include: files,
      fileParallelism: true,
      maxWorkers,
      // One vitest group for both (a group has one maxWorkers), run after the unit files.
      sequence: { groupOrder: 1 },
      ...extra,
    },
  });
  const projects = [];
  if (include.length > 0) {
    projects.push(
      project('integration-side-by-side', include, {
        setupFiles: [fileURLToPath(new URL('./control-plane-per-file.js', import.meta.url))],
        env: { CTRLKIT_ENVTEST_VITEST_MODULE: resolveFromPackage('@ctrlkit/envtest/vitest') },
      }),
    );
  }
  if (ownControlPlane.length > 0) {
    projects.push(project('integration-own-plane', ownControlPlane, {}));
  }
  return projects;
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
