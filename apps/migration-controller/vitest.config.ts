import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (fake clock, no control plane) and `integration` (*.int.test.ts), which gets one
// real control plane for the run with an audit log from @ctrlkit/app-testing's global setup:
// the controller runs as its deploy/ ServiceAccount, and the run fails on a rule it never
// used. garbage-collection.int.test.ts starts its own control plane with kube-scheduler and
// kube-controller-manager.
export default ctrlkitVitestProjects('@ctrlkit/app-testing/global-setup', {
  testTimeout: 120_000,
  fileParallelism: false,
});
