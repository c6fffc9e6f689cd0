//! Whether an error says a resource version can no longer, or cannot yet, be served.

import { ApiStatusError } from './api-status-error.js';
import { ResourceExpiredError } from './resource-expired-error.js';

/** The Status cause the apiserver sets when a resource version is newer than it has seen. */
export const CAUSE_RESOURCE_VERSION_TOO_LARGE = 'ResourceVersionTooLarge';
/** What apiservers before 1.18.6 put in the message instead of the cause. */
const TOO_LARGE_MESSAGE = 'Too large resource version';

/**
 * True when the apiserver no longer has the resource version asked for: 410 Gone, or a
 * Status with reason `Expired` or `Gone` (client-go's `isExpiredError`).
 */
export function isExpiredError(error: unknown): boolean {
  if (ResourceExpiredError.isInstance(error)) return true;
  if (!ApiStatusError.isInstance(error)) return false;
  const reason = error.status?.reason;
  return error.statusCode === 410 || reason === 'Expired' || reason === 'Gone';
}

/**
 * True when the resource version asked for is newer than the apiserver (its watch cache)
 * has seen: a Status cause `ResourceVersionTooLarge`, usually with 504 (client-go's
 * `isTooLargeResourceVersionError`, older servers' message included).
 */
export function isTooLargeResourceVersionError(error: unknown): boolean {
  if (!ApiStatusError.isInstance(error)) return false;
  const status = error.status;
  const causes = status?.details?.causes ?? [];
  if (causes.some((cause) => cause.reason === CAUSE_RESOURCE_VERSION_TOO_LARGE)) return true;
  if (error.statusCode !== 504 && status?.reason !== 'Timeout') return false;
  return (
    causes.some((cause) => cause.message === TOO_LARGE_MESSAGE) ||
    (status?.message?.includes(TOO_LARGE_MESSAGE) ?? false)
  );
}
