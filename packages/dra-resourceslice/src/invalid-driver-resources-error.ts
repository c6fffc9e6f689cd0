//! The error for desired resources the controller will not publish.

const marker = Symbol.for('@ctrlkit/dra-resourceslice/InvalidDriverResourcesError');

/**
 * Desired resources that cannot be published: a cross-reference problem (duplicate device,
 * duplicate or unknown counter set, unknown counter; the messages are upstream's), or a
 * `resource.k8s.io/v1` API limit that the apiserver would reject with 422. Reported through
 * `Options.errorHandler` before any API call, or thrown by `validateApiLimits`.
 */
export class InvalidDriverResourcesError extends Error {
  /** What a program can branch on. */
  readonly reason = 'InvalidDriverResources' as const;
  /** The pool at fault. */
  readonly poolName: string;
  /** Where in the pool, e.g. `slices[0].devices[3].name` (`''` for the pool itself). */
  readonly field: string;
  readonly [marker] = true;

  constructor(poolName: string, field: string, message: string) {
    super(message);
    this.name = 'InvalidDriverResourcesError';
    this.poolName = poolName;
    this.field = field;
  }

  /** True for any InvalidDriverResourcesError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is InvalidDriverResourcesError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
