// The one 410 rule: whether the API server no longer has the resource version asked for.

import { statusCode, statusReason } from './api-status.js';

/**
 * The Status reasons apimachinery knows (`metav1.StatusReason…`, the empty reason excepted).
 * A 410 that carries one of these reasons other than `Gone` or `Expired` says something else.
 */
const KNOWN_REASONS: ReadonlySet<string> = new Set([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StoreReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

/** The parts of a `meta/v1` Status the 410 rule reads. */
export interface ExpiryStatus {
  /** The HTTP status code (`code` of the Status). */
  readonly code?: number | undefined;
  /** The Status reason (`Expired`, `Gone`, …). */
  readonly reason?: string | undefined;
}

/**
 * True when a Status says the resource version asked for is gone (client-go's reflector
 * `isExpiredError`: apimachinery's `IsResourceExpired` or `IsGone`): reason `Expired` (what
 * apiservers since 1.18 send for "too old resource version" from the watch cache and for a
 * compacted list, watch or continue token), reason `Gone` (what older apiservers sent for the
 * same), or code 410 with no reason, or one apimachinery does not know. A 410 with another
 * known reason (`NotFound`, …) is not expiry. The list or watch must start again from a list.
 */
export function isExpiredStatus(status: ExpiryStatus | undefined): boolean {
  const reason = status?.reason ?? '';
  if (reason === 'Expired' || reason === 'Gone') return true;
  return status?.code === 410 && !KNOWN_REASONS.has(reason);
}

/**
 * True for an error that says the resource version asked for is gone, by
 * {@link isExpiredStatus} on the code and reason found in its `cause` chain (the runtime's
 * `ResourceExpiredError` and `ApiStatusError`, client-node's `ApiException`, a Status body).
 */
export function isGone(error: unknown): boolean {
  return isExpiredStatus({ code: statusCode(error), reason: statusReason(error) });
}
