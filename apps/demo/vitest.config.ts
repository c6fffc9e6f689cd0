import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// The demo's smoke test runs `npm start`'s program headless as a child process; that program
// starts its own cluster, so no global setup is needed.
export default ctrlkitVitestConfig({
  test: {
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
