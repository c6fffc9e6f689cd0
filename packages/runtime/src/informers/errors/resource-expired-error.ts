//! The error for a resource version the apiserver no longer has (410 Gone).

import { InformerError } from './informer-error.js';

/**
 * The apiserver answered 410 Gone (HTTP status, or a watch ERROR event with code 410 or
 * reason `Expired`/`Gone`): the resource version asked for was compacted away. The
 * reflector reacts by listing again; callers of a `ListWatch` see it thrown.
 */
export class ResourceExpiredError extends InformerError {
  /** The resource version that expired, when known. */
  readonly resourceVersion: string | undefined;

  constructor(message: string, resourceVersion?: string) {
    super('ResourceExpired', message);
    this.resourceVersion = resourceVersion;
  }
}
