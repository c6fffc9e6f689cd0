import { ctrlkitVitestProjects } from '@ctrlkit/vitest-config';

// `unit` (no control plane) and `integration` (*.int.test.ts), which gets one control plane
// for the run from the global setup. control-plane.int.test.ts starts its own, because it
// restarts and stops it.
export default ctrlkitVitestProjects('./src/global-setup.ts');
