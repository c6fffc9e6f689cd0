import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (the CRD manifest check) and `integration` (*.int.test.ts), which runs against one
// real control plane from @ctrlkit/envtest.
export default ctrlkitVitestProjects('@ctrlkit/envtest/global-setup', {
  testTimeout: 180_000,
  fileParallelism: false,
});
