//! How the reflector reads a failure of a list or watch: whether an operator must act, whether to relist, what to log.

import { ApiStatusError, TlsVerificationError } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';

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

/** The message of a failure for the log, with its system error code (`ECONNREFUSED`) when it has one. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
