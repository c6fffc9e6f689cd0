import type { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { nowhere } from '../test/test-server.js';
import { createClient } from './client.js';
import { DEFAULT_LIST_IDLE_TIMEOUT_MS } from './client-options.js';
import { DEFAULT_BURST, DEFAULT_MAX_RETRIES, DEFAULT_QPS } from './throttle.js';

describe('Client options', () => {
  it("uses controller-runtime's 20 qps and burst 30, not client-go's 5 and 10; client-go's 10 retries", () => {
    expect([DEFAULT_QPS, DEFAULT_BURST, DEFAULT_MAX_RETRIES]).toEqual([20, 30, 10]);
    expect(DEFAULT_LIST_IDLE_TIMEOUT_MS).toBe(60_000);
  });

  it.each([
    ['qps', { qps: 0 }],
    ['qps', { qps: -1 }],
    ['burst', { burst: 0 }],
    ['burst', { burst: 2.5 }],
    ['userAgent', { userAgent: ' ' }],
    ['userAgent', { userAgent: 'a\nb' }],
    ['program.name', { program: { name: 'my app' } }],
    ['program.version', { program: { version: '1/2' } }],
    ['maxRetries', { maxRetries: -1 }],
    ['listIdleTimeoutMs', { listIdleTimeoutMs: 0 }],
    ['disableCompression', { disableCompression: 'yes' }],
    ['metrics', { metrics: {} }],
    ['onRequest', { onRequest: 'x' }],
    ['qpz', { qpz: 1 }],
  ])('rejects an invalid %s naming it', (field, options) => {
    expect(() => createClient(nowhere(), options as never)).toThrow(
      expect.objectContaining({ field }) as InvalidArgumentError,
    );
  });

  it('rejects something that is not a kubeconfig, naming it', () => {
    expect(() => createClient({} as never)).toThrow(
      expect.objectContaining({ field: 'kubeConfig' }) as InvalidArgumentError,
    );
  });
});
