//! The error for a resource version the apiserver no longer has (410 Gone).

import type { ApiStatus } from './api-status-error.js';
import { InformerError } from './informer-error.js';

/**
 * The apiserver answered 410 Gone (HTTP status, or a watch ERROR event that core's
 * `isExpiredStatus` reads as expiry: code 410 or reason `Expired`/`Gone`): the resource
 * version asked for was compacted away. The reflector reacts by listing again; callers of a
 * `ListWatch` see it thrown. Core's `isGone` recognises it (its `statusCode` is 410).
 */
export class ResourceExpiredError extends InformerError {
  /** The resource version that expired, when known. */
  readonly resourceVersion: string | undefined;
  /** Always 410: what the error means, whatever code the Status carried. */
  readonly statusCode = 410;
  /** The Status the apiserver sent, when there was one. */
  readonly status: ApiStatus | undefined;

  constructor(message: string, resourceVersion?: string, status?: ApiStatus) {
    super('ResourceExpired', message);
    this.resourceVersion = resourceVersion;
    this.status = status;
  }
}
