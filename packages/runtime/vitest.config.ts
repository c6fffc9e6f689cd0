import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (fake clock, no control plane) and `integration` (*.int.test.ts), which gets one
// real control plane for the run from @ctrlkit/envtest's global setup. Three files that mostly
// wait (a half-open watch until the HTTP/2 ping closes it; an informer left unwatched past its
// timeout; apiserver restarts under an informer) run side by side first, two at a time:
// half-open-watch with a control plane of its own, the other two with the one each starts.
export default ctrlkitVitestProjects(
  '@ctrlkit/envtest/global-setup',
  { testTimeout: 120_000, fileParallelism: false },
  {
    include: ['src/informers/half-open-watch.int.test.ts'],
    ownControlPlane: [
      'src/manager/informer-health.int.test.ts',
      'src/informers/informer-faults.int.test.ts',
    ],
  },
);
