//! The error for a resource version the apiserver no longer has (410 Gone).

import { InformerError } from './informer-error.js';

const marker = Symbol.for('@ctrlkit/runtime/ResourceExpiredError');

/**
 * The apiserver answered 410 Gone (HTTP status, or a watch ERROR event with code 410 or
 * reason `Expired`/`Gone`): the resource version asked for was compacted away. The
 * reflector reacts by listing again; callers of a `ListWatch` see it thrown.
 */
export class ResourceExpiredError extends InformerError {
  readonly [marker] = true;
  /** The resource version that expired, when known. */
  readonly resourceVersion: string | undefined;

  constructor(message: string, resourceVersion?: string) {
    super('ResourceExpired', message);
    this.name = 'ResourceExpiredError';
    this.resourceVersion = resourceVersion;
  }

  /** True for any ResourceExpiredError, also one made by another copy of this package. */
  static override isInstance(error: unknown): error is ResourceExpiredError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
