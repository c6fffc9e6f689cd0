//! A control plane process could not listen on its port.

import { EnvtestError, formatLogTail } from './envtest-error.js';

/** `processName` could not bind `port` because another process holds it. */
export class PortInUseError extends EnvtestError {
  readonly processName: string;
  readonly port: number;
  readonly logTail: readonly string[];
  /** The process's whole log (a kept copy when it failed during `startControlPlane`). */
  readonly logPath: string | undefined;

  constructor(
    processName: string,
    port: number,
    logTail: readonly string[],
    options?: { logPath?: string },
  ) {
    super(
      'PortInUse',
      `${processName} could not listen on 127.0.0.1:${port}: address already in use; ${formatLogTail(processName, logTail, options?.logPath)}`,
    );
    this.processName = processName;
    this.port = port;
    this.logTail = logTail;
    this.logPath = options?.logPath;
  }
}
