//! Something did not become ready in time.

import { EnvtestError } from './envtest-error.js';

/**
 * `what` (for example `kube-apiserver /readyz` or `CRD widgets.example.com Established`)
 * was not ready within `timeoutMs`; `lastProblem` says what was seen last.
 */
export class NotReadyError extends EnvtestError {
  readonly what: string;
  readonly timeoutMs: number;
  readonly lastProblem: string;

  constructor(what: string, timeoutMs: number, lastProblem: string, options?: { cause?: unknown }) {
    super('NotReady', `${what} was not ready after ${timeoutMs} ms: ${lastProblem}`, options);
    this.what = what;
    this.timeoutMs = timeoutMs;
    this.lastProblem = lastProblem;
  }
}
