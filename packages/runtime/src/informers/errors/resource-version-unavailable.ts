//! Whether an error says a resource version cannot yet be served (too large). Whether it can no
//! longer be served (expired, 410) is core's `isGone`.

import { ApiStatusError } from '@ctrlkit/client';

/** The Status cause the apiserver sets when a resource version is newer than it has seen. */
export const CAUSE_RESOURCE_VERSION_TOO_LARGE = 'ResourceVersionTooLarge';
/** What apiservers before 1.18.6 put in the message instead of the cause. */
const TOO_LARGE_MESSAGE = 'Too large resource version';

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
