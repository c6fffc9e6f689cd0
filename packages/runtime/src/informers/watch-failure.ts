//! How the reflector reads a failure of a list or watch: whether an operator must act, whether to relist, what to log.

import { ApiStatusError, TlsVerificationError, WatchStreamError } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';
import { SHORT_WATCH_MS } from './reflector-options.js';

/**
 * True for a failure that retrying will not cure: the apiserver refused the credentials
 * (401) or the permission (403, its message names the user, verb, resource, group and
 * namespace), or its certificate is not trusted.
 */
export function needsOperator(error: unknown): boolean {
  const code = statusCode(error);
  return code === 401 || code === 403 || TlsVerificationError.isInstance(error);
}

/**
 * True when client-go relists after this watch failure: an error Status from the server
 * (an ERROR event, or the watch request refused), except 429 Too Many Requests.
 */
export function relistsAfter(error: unknown): boolean {
  return ApiStatusError.isInstance(error) && error.statusCode !== 429;
}

/** True when the connection was refused (`ECONNREFUSED`, on the error or a cause of it). */
export function isConnectionRefused(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}

/**
 * True when client-go's reflector (v0.35–v0.37, `watchList`) gives up a streaming list that
 * failed before its initial-events-end bookmark and LISTs instead, for this attempt: the
 * request was refused or the stream ended in an error Status (403, 422 from a server without
 * the feature, 500, ...), the request failed before the stream opened, or the stream ended at
 * once without an event. Not on 429 or a refused connection (it backs off and streams
 * again), and not when an open stream broke after it had events or had lasted
 * {@link SHORT_WATCH_MS}: its channel closes, and it streams again.
 */
export function streamFallsBackToList(
  error: unknown,
  stream: { opened: boolean; events: number; elapsedMs: number },
): boolean {
  if (ApiStatusError.isInstance(error)) return error.statusCode !== 429;
  if (isConnectionRefused(error)) return false;
  if (WatchStreamError.isInstance(error)) return true;
  return !stream.opened || (stream.events === 0 && stream.elapsedMs < SHORT_WATCH_MS);
}

/** The message of a failure for the log, with its system error code (`ECONNREFUSED`) when it has one. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
