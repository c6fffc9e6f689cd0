import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (fake clock, no control plane) and `integration` (*.int.test.ts), which gets one
// real control plane for the run from @ctrlkit/envtest's global setup.
export default ctrlkitVitestProjects('@ctrlkit/envtest/global-setup', {
  testTimeout: 120_000,
  fileParallelism: false,
});
