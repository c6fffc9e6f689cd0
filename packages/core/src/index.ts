/**
 * `@ctrlkit/core`: the ground floor every ctrlkit package stands on, and nothing else.
 *
 * - **Time**: {@link Clock} (epoch milliseconds and timers), {@link realClock},
 *   {@link sleep}; a fake clock for tests in `@ctrlkit/core/testing`.
 * - **Logging**: {@link Logger}, the structured-logger shape pino satisfies, and
 *   {@link noopLogger}.
 * - **Errors**: {@link CtrlkitError}, the base of every ctrlkit error (a `reason` to branch
 *   on, a `cause`, a guard that works across package copies), and
 *   {@link InvalidArgumentError} for options and arguments a package cannot accept;
 *   {@link rejectRenamedOptions} rejects an option passed under a name it no longer has.
 * - **API status**: what an error from the API server says, as apimachinery's `errors`
 *   package reads it: {@link statusCode}, {@link isNotFound}, {@link isConflict},
 *   {@link isAlreadyExists}, {@link isGone} (and {@link isExpiredStatus}, the one 410 rule,
 *   for a Status object), {@link isTooManyRequests},
 *   {@link retryAfterMs}, {@link errorMessage}.
 * - **Rate**: {@link TokenBucket}, golang.org/x/time/rate's limiter (the workqueue's bucket
 *   rate limiter and the client's `qps`/`burst`).
 *
 * A first program:
 * ```ts
 * import { isNotFound, realClock, sleep } from '@ctrlkit/core';
 *
 * try {
 *   await client.read(pod);
 * } catch (error) {
 *   if (!isNotFound(error)) throw error;
 *   await sleep(realClock, 1_000, signal);
 * }
 * ```
 *
 * @packageDocumentation
 */

export {
  errorMessage,
  isAlreadyExists,
  isConflict,
  isNotFound,
  isTooManyRequests,
  retryAfterMs,
  statusCode,
  statusReason,
} from './api-status.js';
export { type Clock, realClock, sleep, type Timer } from './clock.js';
export { CtrlkitError } from './ctrlkit-error.js';
export { type ExpiryStatus, isExpiredStatus, isGone } from './gone.js';
export { InvalidArgumentError } from './invalid-argument-error.js';
export { type Logger, noopLogger } from './logger.js';
export { rejectRenamedOptions } from './renamed-options.js';
export { TokenBucket } from './token-bucket.js';
