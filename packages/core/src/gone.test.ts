import { describe, expect, it } from 'vitest';
import { isExpiredStatus, isGone } from './gone.js';

/** The runtime's ApiStatusError, by shape: `statusCode` and the Status. */
function apiStatusError(statusCode: number, status?: object) {
  return Object.assign(new Error(`${statusCode}`), { statusCode, status });
}
/** client-node's ApiException, by shape: `code` and a Status body as JSON text. */
function apiException(code: number, body: object) {
  return Object.assign(new Error(`HTTP-Code: ${code}`), { code, body: JSON.stringify(body) });
}

describe('the 410 rule (client-go reflector isExpiredError: IsResourceExpired || IsGone)', () => {
  it('410 Gone with no reason is expiry (IsGone by code)', () => {
    expect(isExpiredStatus({ code: 410 })).toBe(true);
    expect(isGone(apiStatusError(410))).toBe(true);
    expect(isGone(apiException(410, {}))).toBe(true);
  });

  it('reason Expired is expiry, whatever the code (IsResourceExpired)', () => {
    expect(isExpiredStatus({ code: 410, reason: 'Expired' })).toBe(true);
    expect(isExpiredStatus({ reason: 'Expired' })).toBe(true);
    expect(isGone({ body: { reason: 'Expired', code: 200 } })).toBe(true);
  });

  it('reason Gone is expiry (IsGone by reason)', () => {
    expect(isExpiredStatus({ code: 410, reason: 'Gone' })).toBe(true);
    expect(isExpiredStatus({ reason: 'Gone' })).toBe(true);
  });

  it("the apiserver's too-old-resource-version answers are expiry", () => {
    // Watch cache since 1.18 (NewResourceExpired), and etcd compaction of a watch, list or
    // continue token: 410 with reason Expired.
    const watchCache = {
      kind: 'Status',
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 5 (1200)',
    };
    const compacted = {
      code: 410,
      reason: 'Expired',
      message: 'The resourceVersion for the provided watch is too old.',
    };
    // Apiservers up to 1.17 (NewGone): 410 with reason Gone.
    const before118 = { code: 410, reason: 'Gone', message: 'too old resource version: 5 (1200)' };
    for (const status of [watchCache, compacted, before118]) {
      expect(isExpiredStatus(status)).toBe(true);
      expect(isGone(apiStatusError(410, status))).toBe(true);
      expect(isGone(apiException(410, status))).toBe(true);
    }
  });

  it('410 with a reason apimachinery does not know is expiry; with another known reason it is not', () => {
    expect(isExpiredStatus({ code: 410, reason: 'SomethingNew' })).toBe(true);
    expect(isExpiredStatus({ code: 410, reason: 'NotFound' })).toBe(false);
    expect(isGone(apiStatusError(410, { code: 410, reason: 'NotFound' }))).toBe(false);
  });

  it('other answers are not expiry, nor is a message alone', () => {
    expect(isExpiredStatus(undefined)).toBe(false);
    expect(isExpiredStatus({})).toBe(false);
    expect(isExpiredStatus({ code: 404, reason: 'NotFound' })).toBe(false);
    expect(isExpiredStatus({ code: 500 })).toBe(false);
    expect(isGone(apiStatusError(404))).toBe(false);
    expect(isGone(apiStatusError(500, { message: 'too old resource version: 5 (1200)' }))).toBe(
      false,
    );
    expect(isGone(new Error('410'))).toBe(false);
    expect(isGone(undefined)).toBe(false);
  });

  it('reads the code and reason through the cause chain', () => {
    const wrapped = new Error('list pods', { cause: apiStatusError(410, { reason: 'Expired' }) });
    expect(isGone(wrapped)).toBe(true);
  });
});
