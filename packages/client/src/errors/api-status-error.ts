//! The error for a request the apiserver answered with a non-success status.

import type { IncomingHttpHeaders } from 'node:http';
import { InformerError } from './informer-error.js';

/** The parts of a `meta/v1` Status the informers read. */
export interface ApiStatus {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
  /** What went wrong, field by field; `causes[].reason` e.g. `ResourceVersionTooLarge`. */
  readonly details?: {
    readonly causes?: ReadonlyArray<{ readonly reason?: string; readonly message?: string }>;
    /** How long the server asks the client to wait before retrying (429, some 5xx). */
    readonly retryAfterSeconds?: number;
  };
}

/**
 * A request answered with an HTTP error status (any request of the runtime's `Client`), or
 * a watch ERROR event that is not 410 Gone. The reflector logs it and retries with backoff;
 * it is never thrown to a caller of `run()`, only of a `ListWatch` or the `Client`. Read it
 * with core's helpers: `statusCode`, `isNotFound`, `isConflict`, `retryAfterMs` (which also
 * reads the `Retry-After` header kept in {@link ApiStatusError.headers}).
 */
export class ApiStatusError extends InformerError {
  /** The HTTP status code (or the Status `code` of a watch ERROR event). */
  readonly statusCode: number;
  /** The Status object from the body, when there was one. */
  readonly status: ApiStatus | undefined;
  /** The verb and path of the request. */
  readonly request: string;
  /** The answer's headers (e.g. `retry-after`); undefined for a watch ERROR event. */
  readonly headers: IncomingHttpHeaders | undefined;

  constructor(
    statusCode: number,
    status: ApiStatus | undefined,
    request: string,
    headers?: IncomingHttpHeaders,
  ) {
    super(
      'ApiStatus',
      `${request}: ${statusCode}${status?.reason ? ` ${status.reason}` : ''}${status?.message ? `: ${status.message}` : ''}`,
    );
    this.statusCode = statusCode;
    this.status = status;
    this.request = request;
    this.headers = headers;
  }
}
