/**
 * `@ctrlkit/envtest/global-setup`: a vitest global setup with default options, which starts
 * one control plane for the test run and stops it at teardown. For options, write a setup
 * file of your own with `envtestGlobalSetup` from `@ctrlkit/envtest/vitest`.
 *
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['@ctrlkit/envtest/global-setup'] } });
 * ```
 *
 * @packageDocumentation
 */

import { envtestGlobalSetup } from './vitest-integration.js';

/** Starts one control plane for the test run and stops it at teardown. */
const setup: ReturnType<typeof envtestGlobalSetup> = envtestGlobalSetup();
export default setup;
