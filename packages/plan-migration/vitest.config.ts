import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (fake clock, no control plane) and `integration` (*.int.test.ts), which gets one
// real control plane for the run from @ctrlkit/envtest's global setup. The four files that
// wait on simulated copies and conversions in real time (the plan controller, the controllers
// together, the KubeVirt destination, guest conversion) run side by side first, two at a time,
// each with a control plane of its own.
export default ctrlkitVitestProjects(
  '@ctrlkit/envtest/global-setup',
  { testTimeout: 120_000, fileParallelism: false },
  {
    include: [
      'src/controllers/controllers.int.test.ts',
      'src/plan-controller.int.test.ts',
      'src/kubevirt/kubevirt-destination.int.test.ts',
      'src/kubevirt/guest-conversion.int.test.ts',
    ],
  },
);
