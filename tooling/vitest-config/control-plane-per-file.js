// A vitest setup file: one real control plane for the test file it runs before (started by
// @ctrlkit/envtest's envtestGlobalSetup in this worker, stopped after the file's last hook), so
// files of the `integration-side-by-side` project run at once, each with its own. The module
// comes in CTRLKIT_ENVTEST_VITEST_MODULE, resolved from the package by ctrlkitVitestProjects.
import { pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';

const module = process.env.CTRLKIT_ENVTEST_VITEST_MODULE;
if (!module) {
  throw new Error(
    'CTRLKIT_ENVTEST_VITEST_MODULE is not set: use this setup file through ctrlkitVitestProjects ' +
      "(@ctrlkit/vitest-config) with its 'sideBySide' option",
  );
}
const { envtestGlobalSetup } = await import(pathToFileURL(module).href);
const stop = await envtestGlobalSetup()();
afterAll(stop, 120_000);
