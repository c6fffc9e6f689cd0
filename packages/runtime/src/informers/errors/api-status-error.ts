//! The error for a request the apiserver answered with a non-success status.

import { InformerError } from './informer-error.js';

/** The parts of a `meta/v1` Status the informers read. */
export interface ApiStatus {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
  /** What went wrong, field by field; `causes[].reason` e.g. `ResourceVersionTooLarge`. */
  readonly details?: {
    readonly causes?: ReadonlyArray<{ readonly reason?: string; readonly message?: string }>;
  };
}

/**
 * A LIST or WATCH answered with an HTTP error status, or a watch ERROR event that is not
 * 410 Gone. The reflector logs it and retries with backoff; it is never thrown to a caller
 * of `run()`, only of a `ListWatch`.
 */
export class ApiStatusError extends InformerError {
  /** The HTTP status code (or the Status `code` of a watch ERROR event). */
  readonly statusCode: number;
  /** The Status object from the body, when there was one. */
  readonly status: ApiStatus | undefined;
  /** The verb and path of the request. */
  readonly request: string;

  constructor(statusCode: number, status: ApiStatus | undefined, request: string) {
    super(
      'ApiStatus',
      `${request}: ${statusCode}${status?.reason ? ` ${status.reason}` : ''}${status?.message ? `: ${status.message}` : ''}`,
    );
    this.statusCode = statusCode;
    this.status = status;
    this.request = request;
  }
}
