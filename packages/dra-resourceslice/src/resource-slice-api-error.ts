//! The error for a failed API call of the controller.

import { CtrlkitError } from '@ctrlkit/core';

/** The call that failed. */
export type ResourceSliceApiOperation =
  | 'create resource slice'
  | 'update resource slice'
  | 'delete resource slice'
  | 'retrieve node';

/**
 * An API call of a pool sync failed. It is reported through `Options.errorHandler` with the
 * message `processing ResourceSlice objects`, and the pool is retried with the queue's rate
 * limiter. The message reads like upstream's (`update resource slice: ...`).
 */
export class ResourceSliceApiError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'ApiCall' as const;
  readonly operation: ResourceSliceApiOperation;
  /** The HTTP status, when the apiserver answered (409 conflict, 422 invalid, ...). */
  readonly statusCode: number | undefined;

  constructor(
    operation: ResourceSliceApiOperation,
    detail: string,
    statusCode: number | undefined,
    cause: unknown,
  ) {
    super(`${operation}: ${detail}`, { cause });
    this.operation = operation;
    this.statusCode = statusCode;
  }
}
