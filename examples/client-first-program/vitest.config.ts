import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// The example's test runs the program against one real control plane from @ctrlkit/envtest.
export default ctrlkitVitestConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['@ctrlkit/envtest/global-setup'],
    testTimeout: 120_000,
    fileParallelism: false,
  },
});
