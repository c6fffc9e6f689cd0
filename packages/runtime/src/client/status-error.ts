//! The error of an answer with a non-success status: `ResourceExpiredError` for 410, else `ApiStatusError`.

import type { IncomingHttpHeaders } from 'node:http';
import { type ApiStatus, ApiStatusError } from '../informers/errors/api-status-error.js';
import { ResourceExpiredError } from '../informers/errors/resource-expired-error.js';
import { decodeBody } from './content-type.js';

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
  if (statusCode === 410)
    return new ResourceExpiredError(
      `${request}: 410 Gone${status?.message ? `: ${status.message}` : ''}`,
    );
  return new ApiStatusError(statusCode, status, request, headers);
}

/** True when a watch ERROR event's Status says the resource version expired (410 / Expired / Gone). */
export function isExpiredStatus(status: ApiStatus | undefined): boolean {
  return status?.code === 410 || status?.reason === 'Expired' || status?.reason === 'Gone';
}
