import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// One control plane per file (its apiserver is restarted), started in the file's beforeAll;
// files side by side, three at a time (each plane and its apps take about 1 GB and one core
// at their busiest), so the suite fits CI's budget: the migration controller's cases, which
// mostly wait on its plan, have a file per fault kind. The global setup gathers every file's
// figures into one table per app.
export default ctrlkitVitestConfig({
  test: {
    globalSetup: ['./src/global-setup.ts'],
    // Tells the global setup whether every case passed (only then is the results file written).
    reporters: ['./src/run-outcome-reporter.ts'],
    fileParallelism: true,
    maxWorkers: 3,
    testTimeout: 180_000,
  },
});
