import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../informers/errors/api-status-error.js';
import { isConflict, isNotFound } from './api-errors.js';

describe('API errors', () => {
  it('recognise conflicts by code, statusCode or Status reason', () => {
    expect(isConflict(new ApiException(409, 'Conflict', {}, {}))).toBe(true);
    expect(isConflict({ statusCode: 409 })).toBe(true);
    expect(isConflict({ body: JSON.stringify({ kind: 'Status', reason: 'Conflict' }) })).toBe(true);
    expect(isConflict(new ApiStatusError(409, { reason: 'AlreadyExists' }, 'POST /x'))).toBe(true);
    expect(isConflict(new ApiException(422, 'Invalid', {}, {}))).toBe(false);
    expect(isConflict(undefined)).toBe(false);
  });

  it('recognise not-found answers the same ways, and nothing else', () => {
    expect(isNotFound(new ApiException(404, 'Not Found', {}, {}))).toBe(true);
    expect(isNotFound(new ApiStatusError(404, { reason: 'NotFound' }, 'GET /x'))).toBe(true);
    expect(isNotFound({ body: { kind: 'Status', code: 404 } })).toBe(true);
    expect(isNotFound(new ApiException(409, 'Conflict', {}, {}))).toBe(false);
    expect(isNotFound(new Error('socket hang up'))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });
});
