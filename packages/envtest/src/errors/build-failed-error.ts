//! Building a control plane binary with Go failed.

import { EnvtestError, formatLogTail } from './envtest-error.js';

/** `go build` of `binary` failed; `logPath` holds the whole build log. */
export class BuildFailedError extends EnvtestError {
  readonly binary: string;
  readonly logPath: string;
  readonly logTail: readonly string[];

  constructor(binary: string, problem: string, logPath: string, logTail: readonly string[]) {
    super(
      'BuildFailed',
      `building ${binary} failed: ${problem} (full log: ${logPath}); ${formatLogTail('go build', logTail)}`,
    );
    this.binary = binary;
    this.logPath = logPath;
    this.logTail = logTail;
  }
}
