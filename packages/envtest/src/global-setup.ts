//! A vitest global setup with default options: `globalSetup: ['@ctrlkit/envtest/global-setup']`.

import { envtestGlobalSetup } from './vitest.js';

/** Starts one control plane for the test run and stops it at teardown. */
const setup: ReturnType<typeof envtestGlobalSetup> = envtestGlobalSetup();
export default setup;
