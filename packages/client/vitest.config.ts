import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (fake clock, no control plane) and `integration` (*.int.test.ts), which gets one
// real control plane for the run from @ctrlkit/envtest's global setup. The stream-limit file
// starts a control plane of its own (a low `--http2-max-streams-per-connection`) and never
// uses the shared one.
export default ctrlkitVitestProjects(
  '@ctrlkit/envtest/global-setup',
  { testTimeout: 120_000, fileParallelism: false },
  { ownControlPlane: ['src/http2-stream-limit.int.test.ts'] },
);
