//! The exit status a remotecommand server writes on the error stream (3): a v4 `Status` JSON.

import { type ApiStatus, ApiStatusError } from '../errors/api-status-error.js';

/** The Status reason of a command that exited with a non-zero code. */
export const NON_ZERO_EXIT_CODE_REASON = 'NonZeroExitCode';
/** The cause type (`causes[].reason`) that carries the exit code as its message. */
export const EXIT_CODE_CAUSE_TYPE = 'ExitCode';

/** How a command ended: its exit code (0 on `Success`). */
export interface ExecResult {
  readonly exitCode: number;
}

/**
 * The result the error stream's `message` reports: `Success` is exit code 0, a `Failure`
 * with reason `NonZeroExitCode` the code in its `ExitCode` cause. Any other `Failure` (the
 * runtime could not run the command, an internal error) throws an `ApiStatusError` with
 * the Status, its code (500 when it gives none) and `request` (`EXEC /api/v1/…`).
 */
export function parseExecStatus(message: Buffer, request: string): ExecResult {
  let status: ApiStatus & { status?: string };
  try {
    status = JSON.parse(message.toString('utf8'));
  } catch {
    throw new ApiStatusError(500, { message: message.toString('utf8').slice(0, 500) }, request);
  }
  if (status.status === 'Success') return { exitCode: 0 };
  if (status.reason === NON_ZERO_EXIT_CODE_REASON) {
    const cause = status.details?.causes?.find((c) => c.reason === EXIT_CODE_CAUSE_TYPE);
    const exitCode = Number(cause?.message);
    if (Number.isInteger(exitCode)) return { exitCode };
  }
  throw new ApiStatusError(status.code ?? 500, status, request);
}
