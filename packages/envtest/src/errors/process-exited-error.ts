//! A control plane process exited when it should have kept running.

import { EnvtestError, formatLogTail } from './envtest-error.js';

/**
 * `processName` exited (or could not be started); the message ends with its last log lines
 * and, when known, the path of its whole log.
 */
export class ProcessExitedError extends EnvtestError {
  readonly processName: string;
  /** The exit code, or `null` when a signal ended the process or it never started. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly logTail: readonly string[];
  /**
   * The process's whole log. When the process failed during `startControlPlane`, this is a
   * copy kept beside the removed temporary folder (delete it when done).
   */
  readonly logPath: string | undefined;

  constructor(
    processName: string,
    exit: { code: number | null; signal: string | null },
    logTail: readonly string[],
    options?: { cause?: unknown; logPath?: string },
  ) {
    const how =
      exit.signal !== null
        ? `was killed by ${exit.signal}`
        : exit.code !== null
          ? `exited with code ${exit.code}`
          : 'could not be started';
    super(
      'ProcessExited',
      `${processName} ${how}; ${formatLogTail(processName, logTail, options?.logPath)}`,
      options,
    );
    this.processName = processName;
    this.exitCode = exit.code;
    this.signal = exit.signal;
    this.logTail = logTail;
    this.logPath = options?.logPath;
  }
}
