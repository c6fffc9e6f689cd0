import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// Two projects: `unit` (fake clock, no control plane) and `integration` (*.int.test.ts),
// which gets one real control plane for the run from @ctrlkit/envtest's global setup.
export default ctrlkitVitestConfig({
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
          globalSetup: ['@ctrlkit/envtest/global-setup'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
