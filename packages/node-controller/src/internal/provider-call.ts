//! A provider call bounded by the pod controller's `providerTimeoutMs`.

import { ProviderTimeoutError } from '../provider-timeout-error.js';
import type { PodControllerContext } from './pod-controller-context.js';

/**
 * Runs `call` with a signal that aborts with the controller's, or with a
 * {@link ProviderTimeoutError} after `providerTimeoutMs` (no limit when unset); the call is
 * abandoned at that moment even if it ignores its signal.
 */
export async function callProvider<T>(
  c: PodControllerContext,
  operation: string,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeoutMs = c.config.providerTimeoutMs;
  if (timeoutMs === undefined) return call(c.signal);
  const bounded = new AbortController();
  const onAbort = () => bounded.abort(c.signal.reason);
  if (c.signal.aborted) onAbort();
  else c.signal.addEventListener('abort', onAbort, { once: true });
  let timer: { cancel(): void } | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = c.clock.setTimer(() => {
      const error = new ProviderTimeoutError(operation, timeoutMs);
      bounded.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(bounded.signal), timedOut]);
  } finally {
    timer?.cancel();
    c.signal.removeEventListener('abort', onAbort);
  }
}
