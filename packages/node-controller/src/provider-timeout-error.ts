//! The error of a provider call that did not return within the pod controller's `providerTimeoutMs`.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * A provider call (`createPod`, `updatePod`, `deletePod`, `getPod`) of the pod controller's
 * sync did not return within `PodControllerConfig.providerTimeoutMs`: its signal was aborted
 * with this error, and the pod is handled as after any provider error (its status
 * `ProviderFailed`, a Warning event, the key retried with backoff).
 */
export class ProviderTimeoutError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'ProviderTimeout' as const;

  constructor(
    /** The provider method, e.g. `createPod`. */
    readonly operation: string,
    /** The limit it exceeded, in ms. */
    readonly timeoutMs: number,
  ) {
    super(`provider ${operation} did not return within ${timeoutMs} ms`);
  }
}
