// A vitest reporter that tells the global setup's teardown whether the run passed: only a run
// in which every case passed may write the committed results file.

import type { Reporter } from 'vitest/node';

/** Set (to 1) in the main process when the run ended with every test passed. */
export const RUN_PASSED_ENV = 'CTRLKIT_FAULTS_RUN_PASSED';

/** Marks the run passed (see {@link RUN_PASSED_ENV}) when it ends with no failure. */
export default class RunOutcomeReporter implements Reporter {
  onTestRunEnd: NonNullable<Reporter['onTestRunEnd']> = (_modules, errors, reason) => {
    if (reason === 'passed' && errors.length === 0) process.env[RUN_PASSED_ENV] = '1';
  };
}
