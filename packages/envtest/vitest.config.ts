import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// Two projects: `unit` (no control plane) and `integration` (*.int.test.ts), which gets one
// control plane for the run from the global setup. control-plane.int.test.ts starts its own,
// because it restarts and stops it. `vitest run --project unit` skips the control plane.
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
          globalSetup: ['./src/global-setup.ts'],
          // Integration tests start processes and wait on a real apiserver.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
