import { describe, expect, it } from 'vitest';
import {
  errorMessage,
  isAlreadyExists,
  isConflict,
  isNotFound,
  isTooManyRequests,
  retryAfterMs,
  statusCode,
  statusReason,
} from './api-status.js';
import { CtrlkitError } from './ctrlkit-error.js';

/** client-node's ApiException, by shape: `code`, a body (text or object), headers. */
function apiException(code: number, body: unknown, headers: Record<string, string> = {}) {
  return Object.assign(new Error(`HTTP-Code: ${code}`), { code, body, headers });
}
/** The runtime's ApiStatusError, by shape: `statusCode` and the Status. */
function apiStatusError(statusCode: number, status?: object) {
  return Object.assign(new Error(`${statusCode}`), { statusCode, status });
}

class NoSuchPodError extends CtrlkitError {
  readonly reason = 'NotFound' as const;
}

describe('API status helpers', () => {
  it('statusCode reads statusCode, code, or a Status body, through the cause chain', () => {
    expect(statusCode(apiStatusError(404))).toBe(404);
    expect(statusCode(apiException(409, '{}'))).toBe(409);
    expect(statusCode({ body: JSON.stringify({ kind: 'Status', code: 422 }) })).toBe(422);
    expect(statusCode(new Error('wrapped', { cause: apiException(500, {}) }))).toBe(500);
    expect(statusCode(new Error('ECONNRESET'))).toBeUndefined();
    expect(statusCode(undefined)).toBeUndefined();
    expect(statusCode({ code: 'ECONNREFUSED' })).toBeUndefined();
  });

  it('isNotFound: 404, Status reason NotFound, or a ctrlkit error with reason NotFound', () => {
    expect(isNotFound(apiException(404, 'Not Found'))).toBe(true);
    expect(isNotFound(apiStatusError(404, { reason: 'NotFound' }))).toBe(true);
    expect(isNotFound({ body: { kind: 'Status', code: 404 } })).toBe(true);
    expect(isNotFound(new NoSuchPodError('no pod'))).toBe(true);
    expect(isNotFound(new Error('outer', { cause: new NoSuchPodError('no pod') }))).toBe(true);
    expect(isNotFound(apiException(409, 'Conflict'))).toBe(false);
    expect(isNotFound(new Error('socket hang up'))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });

  it('isConflict: any 409 or Status reason Conflict; isAlreadyExists: reason AlreadyExists only', () => {
    expect(isConflict(apiException(409, {}))).toBe(true);
    expect(isConflict({ statusCode: 409 })).toBe(true);
    expect(isConflict({ body: JSON.stringify({ kind: 'Status', reason: 'Conflict' }) })).toBe(true);
    expect(isConflict(apiStatusError(409, { reason: 'AlreadyExists' }))).toBe(true);
    expect(isConflict(apiException(422, {}))).toBe(false);
    expect(isAlreadyExists(apiStatusError(409, { reason: 'AlreadyExists' }))).toBe(true);
    expect(isAlreadyExists(apiStatusError(409, { reason: 'Conflict' }))).toBe(false);
    expect(statusReason(apiException(409, JSON.stringify({ reason: 'AlreadyExists' })))).toBe(
      'AlreadyExists',
    );
  });

  it('isTooManyRequests reads codes and reasons', () => {
    expect(isTooManyRequests(apiException(429, {}))).toBe(true);
    expect(isTooManyRequests({ status: { reason: 'TooManyRequests' } })).toBe(true);
    expect(isTooManyRequests(apiException(503, {}))).toBe(false);
  });

  it('retryAfterMs reads retryAfterSeconds, a Retry-After header in seconds or as a date, or retryAfterMs', () => {
    expect(retryAfterMs(apiStatusError(429, { details: { retryAfterSeconds: 3 } }))).toBe(3000);
    expect(retryAfterMs(apiException(429, '', { 'Retry-After': '2' }))).toBe(2000);
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(
      retryAfterMs(apiException(503, '', { 'retry-after': 'Wed, 25 Nov 2026 10:00:05 GMT' }), now),
    ).toBe(5000);
    expect(retryAfterMs({ retryAfterMs: 250 })).toBe(250);
    expect(
      retryAfterMs(new Error('x', { cause: { headers: new Headers({ 'retry-after': '1' }) } })),
    ).toBe(1000);
    expect(retryAfterMs(apiException(429, ''))).toBeUndefined();
    expect(retryAfterMs(apiException(429, '', { 'retry-after': 'soon' }))).toBeUndefined();
  });

  it('errorMessage prefers the Status message of an API error', () => {
    expect(
      errorMessage(apiException(404, JSON.stringify({ message: 'pods "web" not found' }))),
    ).toBe('pods "web" not found');
    expect(errorMessage(apiStatusError(409, { message: 'the object has been modified' }))).toBe(
      'the object has been modified',
    );
    expect(errorMessage(apiException(500, 'not json'))).toBe('HTTP-Code: 500');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('text')).toBe('text');
  });
});
