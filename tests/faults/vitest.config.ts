import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// One control plane per file (its apiserver is restarted); files one after another, so their
// timings do not disturb each other; the global setup prints one table of every file's figures.
export default ctrlkitVitestConfig({
  test: {
    globalSetup: ['./src/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
  },
});
