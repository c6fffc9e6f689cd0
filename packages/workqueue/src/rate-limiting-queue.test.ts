import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { newItemExponentialFailureRateLimiter } from './default-rate-limiters.js';
import { newTypedRateLimitingQueue } from './rate-limiting-queue.js';

describe('rate-limited queue', () => {
  it('RateLimitingQueue: addRateLimited waits the limiter delay; forget resets', () => {
    const clock = new FakeClock();
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000), {
      clock,
    });
    q.addRateLimited('one');
    clock.step(0.5);
    expect(q.len()).toBe(0);
    clock.step(0.5);
    expect(q.len()).toBe(1);
    q.addRateLimited('one');
    expect(q.numRequeues('one')).toBe(2);
    q.addRateLimited('two');
    q.addRateLimited('two');
    expect(q.numRequeues('two')).toBe(2);
    q.forget('one');
    expect(q.numRequeues('one')).toBe(0);
    expect(q.len()).toBe(1);
    q.addRateLimited('one');
    expect(q.numRequeues('one')).toBe(1);
    q.shutDown();
  });

  it('rejects a missing rate limiter', () => {
    expect(() => newTypedRateLimitingQueue(undefined as never)).toThrow(/rateLimiter\.when/);
  });
});
