//! The error of an answer with a non-success status: `ResourceExpiredError` for 410, else `ApiStatusError`.

import type { IncomingHttpHeaders } from 'node:http';
import { isExpiredStatus } from '@ctrlkit/core';
import { decodeBody } from './content-type.js';
import { type ApiStatus, ApiStatusError } from './errors/api-status-error.js';
import { ResourceExpiredError } from './errors/resource-expired-error.js';

/** The error for a non-2xx answer to `request` (`GET /api/v1/…`), read from its Status body (JSON, or protobuf as `headers` say). */
export function statusError(
  statusCode: number,
  body: Buffer,
  request: string,
  headers?: IncomingHttpHeaders,
): Error {
  let status: ApiStatus | undefined;
  try {
    const parsed = decodeBody(body, headers ?? {}) as (ApiStatus & { kind?: string }) | undefined;
    if (parsed && typeof parsed === 'object') status = parsed;
  } catch {
    status = body.length > 0 ? { message: body.toString('utf8').slice(0, 500) } : undefined;
  }
  if (isExpiredStatus({ code: statusCode, reason: status?.reason }))
    return new ResourceExpiredError(
      `${request}: ${statusCode} Gone${status?.message ? `: ${status.message}` : ''}`,
      undefined,
      status,
    );
  return new ApiStatusError(statusCode, status, request, headers);
}
