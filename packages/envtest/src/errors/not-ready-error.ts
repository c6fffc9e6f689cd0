//! Something did not become ready in time.

import { EnvtestError } from './envtest-error.js';

/**
 * `what` (for example `kube-apiserver /readyz`, `kube-scheduler /healthz` or
 * `CRD widgets.example.com Established`) was not ready within `timeoutMs`; `lastProblem`
 * says what was seen last (for a process, with the last lines of its log).
 */
export class NotReadyError extends EnvtestError {
  readonly what: string;
  readonly timeoutMs: number;
  readonly lastProblem: string;
  /**
   * For a process that did not become ready: its whole log, a copy kept beside the removed
   * temporary folder (delete it when done). `undefined` otherwise.
   */
  readonly logPath: string | undefined;

  constructor(
    what: string,
    timeoutMs: number,
    lastProblem: string,
    options?: { cause?: unknown; logPath?: string },
  ) {
    super('NotReady', `${what} was not ready after ${timeoutMs} ms: ${lastProblem}`, options);
    this.what = what;
    this.timeoutMs = timeoutMs;
    this.lastProblem = lastProblem;
    this.logPath = options?.logPath;
  }
}
