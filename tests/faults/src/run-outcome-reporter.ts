// A vitest reporter that tells the global setup's teardown how the run ended: the tests that
// failed, named in the results file's caption, so a table never hides a failed bound.

import type { Reporter } from 'vitest/node';

/** Set in the main process when the run ended: a JSON array of the failed tests' full names. */
export const RUN_FAILED_ENV = 'CTRLKIT_FAULTS_RUN_FAILED';

/** Records the run's failed tests (see {@link RUN_FAILED_ENV}) when it ends. */
export default class RunOutcomeReporter implements Reporter {
  onTestRunEnd: NonNullable<Reporter['onTestRunEnd']> = (modules, errors, reason) => {
    const failed = modules.flatMap((m) =>
      [...m.children.allTests('failed')].map((t) => t.fullName),
    );
    if (errors.length > 0 || (reason !== 'passed' && failed.length === 0))
      failed.push(`run ${reason}`);
    process.env[RUN_FAILED_ENV] = JSON.stringify(failed);
  };
}
