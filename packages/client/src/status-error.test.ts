import { isGone, statusCode } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from './errors/api-status-error.js';
import { ResourceExpiredError } from './errors/resource-expired-error.js';
import { statusError } from './status-error.js';

const json = (status: object) => Buffer.from(JSON.stringify(status));

describe('statusError and the one 410 rule', () => {
  it("a 410 answer is a ResourceExpiredError that core's isGone recognises, Status kept", () => {
    const status = {
      kind: 'Status',
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 5 (1200)',
    };
    const error = statusError(410, json(status), 'GET /api/v1/pods');
    expect(ResourceExpiredError.isInstance(error)).toBe(true);
    expect(isGone(error)).toBe(true);
    expect(statusCode(error)).toBe(410);
    expect((error as ResourceExpiredError).status).toEqual(status);
    expect(error.message).toBe('GET /api/v1/pods: 410 Gone: too old resource version: 5 (1200)');
  });

  it('a 410 with no body is expiry too', () => {
    const error = statusError(410, Buffer.alloc(0), 'GET /api/v1/pods');
    expect(ResourceExpiredError.isInstance(error)).toBe(true);
    expect(isGone(error)).toBe(true);
  });

  it('a ResourceExpiredError made without a Status (a fake ListWatch) is gone', () => {
    expect(isGone(new ResourceExpiredError('too old resource version: 3', '3'))).toBe(true);
  });

  it('other answers are ApiStatusError and not gone', () => {
    const error = statusError(404, json({ code: 404, reason: 'NotFound' }), 'GET /api/v1/x');
    expect(ApiStatusError.isInstance(error)).toBe(true);
    expect(isGone(error)).toBe(false);
    const gone = statusError(410, json({ code: 410, reason: 'NotFound' }), 'GET /api/v1/x');
    expect(ApiStatusError.isInstance(gone)).toBe(true);
    expect(isGone(gone)).toBe(false);
  });
});
