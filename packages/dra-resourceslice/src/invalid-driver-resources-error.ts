//! The error for desired resources the controller will not publish.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Desired resources that cannot be published: a cross-reference problem (duplicate device,
 * duplicate or unknown counter set, unknown counter; the messages are upstream's), or a
 * `resource.k8s.io/v1` API limit that the apiserver would reject with 422. Reported through
 * `Options.errorHandler` before any API call, or thrown by `validateApiLimits`.
 */
export class InvalidDriverResourcesError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'InvalidDriverResources' as const;
  /** The pool at fault. */
  readonly poolName: string;
  /** Where in the pool, e.g. `slices[0].devices[3].name` (`''` for the pool itself). */
  readonly field: string;

  constructor(poolName: string, field: string, message: string) {
    super(message);
    this.poolName = poolName;
    this.field = field;
  }
}
