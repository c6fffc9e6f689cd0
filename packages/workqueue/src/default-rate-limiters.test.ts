import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import {
  defaultControllerRateLimiter,
  newBucketRateLimiter,
  newItemExponentialFailureRateLimiter,
  newItemFastSlowRateLimiter,
  newMaxOfRateLimiter,
  newWithMaxWaitRateLimiter,
  type TypedRateLimiter,
} from './default-rate-limiters.js';

const whens = (limiter: TypedRateLimiter<string>, item: string, n: number) =>
  Array.from({ length: n }, () => limiter.when(item));

describe('rate limiters', () => {
  it('ItemExponentialFailure: doubles per failure of an item, forget resets', () => {
    const limiter = newItemExponentialFailureRateLimiter<string>(1, 1000);
    expect(whens(limiter, 'one', 5)).toEqual([1, 2, 4, 8, 16]);
    expect(limiter.numRequeues('one')).toBe(5);
    expect(whens(limiter, 'two', 2)).toEqual([1, 2]);
    expect(limiter.numRequeues('two')).toBe(2);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    expect(limiter.when('one')).toBe(1);
  });

  it('ItemExponentialFailure overflow: caps at the maximum, never wraps', () => {
    const small = newItemExponentialFailureRateLimiter<string>(1, 1000 * 1000);
    whens(small, 'one', 5);
    expect(small.when('one')).toBe(32);
    whens(small, 'one', 1000);
    expect(small.when('one')).toBe(1000 * 1000);

    const minute = 60_000;
    const large = newItemExponentialFailureRateLimiter<string>(minute, 1000 * 60 * minute);
    whens(large, 'one', 2);
    expect(large.when('one')).toBe(4 * minute);
    whens(large, 'one', 1000);
    expect(large.when('one')).toBe(1000 * 60 * minute);
    whens(large, 'one', 5000);
    expect(large.when('one')).toBe(1000 * 60 * minute);
  });

  it('the default controller backoff reaches its 1000 s cap at the 19th failure', () => {
    const limiter = newItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const delays = whens(limiter, 'x', 19);
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
  });

  it('ItemFastSlow: fast for the first attempts, then slow', () => {
    const limiter = newItemFastSlowRateLimiter<string>(5, 10_000, 3);
    expect(whens(limiter, 'one', 5)).toEqual([5, 5, 5, 10_000, 10_000]);
    expect(limiter.numRequeues('one')).toBe(5);
    expect(whens(limiter, 'two', 2)).toEqual([5, 5]);
    expect(limiter.numRequeues('two')).toBe(2);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    expect(limiter.when('one')).toBe(5);
  });

  it('MaxOf: asks every limiter and waits the longest', () => {
    const limiter = newMaxOfRateLimiter(
      newItemFastSlowRateLimiter<string>(5, 3000, 3),
      newItemExponentialFailureRateLimiter<string>(1, 1000),
    );
    expect(whens(limiter, 'one', 5)).toEqual([5, 5, 5, 3000, 3000]);
    expect(limiter.numRequeues('one')).toBe(5);
    expect(whens(limiter, 'two', 2)).toEqual([5, 5]);
    expect(limiter.numRequeues('two')).toBe(2);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    expect(limiter.when('one')).toBe(5);
  });

  it('WithMaxWait: caps the inner delays', () => {
    let calls = 0;
    const step: TypedRateLimiter<string> = {
      when: () => (++calls <= 100 ? 5 : 1_000_000),
      forget: () => {},
      numRequeues: () => calls,
    };
    const limiter = newWithMaxWaitRateLimiter(step, 500_000);
    expect(whens(limiter, 'x', 100)).toEqual(Array(100).fill(5));
    expect(whens(limiter, 'x', 100)).toEqual(Array(100).fill(500_000));
  });

  it('Bucket: starts full, then spaces reservations by 1/qps', () => {
    const clock = new FakeClock();
    const limiter = newBucketRateLimiter<string>({ qps: 10, burst: 100, clock });
    expect(whens(limiter, 'x', 100)).toEqual(Array(100).fill(0));
    expect(limiter.when('x')).toBeCloseTo(100, 9);
    expect(limiter.when('y')).toBeCloseTo(200, 9);
    expect(limiter.numRequeues('x')).toBe(0);
    clock.step(1000);
    // 10 tokens came back but 2 were borrowed: 8 free, then waiting again.
    expect(whens(limiter, 'z', 8).every((d) => Math.abs(d) < 1e-9)).toBe(true);
    expect(limiter.when('z')).toBeCloseTo(100, 9);
  });

  it('the default controller limiter is the longer of backoff and bucket', () => {
    const clock = new FakeClock();
    const limiter = defaultControllerRateLimiter<string>({ clock });
    expect(whens(limiter, 'a', 3)).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) limiter.when(`k${i}`);
    expect(limiter.when('b')).toBeCloseTo(100, 9);
  });

  it('rejects bad options, naming the field', () => {
    expect(() => newBucketRateLimiter({ qps: 10, burst: -1 })).toThrow(/options\.burst/);
    expect(() => newBucketRateLimiter({ qps: 0, burst: 1 })).toThrow(/options\.qps/);
    expect(() => newBucketRateLimiter({ qps: 1, burst: 1, extra: 1 } as never)).toThrow(
      /options\.extra: unknown option/,
    );
    expect(() => newItemExponentialFailureRateLimiter(Number.NaN, 1)).toThrow(/baseDelayMs/);
    expect(() => newItemExponentialFailureRateLimiter(1, Number.POSITIVE_INFINITY)).toThrow(
      /maxDelayMs/,
    );
    expect(() => newItemFastSlowRateLimiter(1, 2, 1.5)).toThrow(/maxFastAttempts/);
    expect(() => newMaxOfRateLimiter()).toThrow(/limiters/);
    expect(() => newWithMaxWaitRateLimiter({} as never, 1)).toThrow(/limiter\.when/);
  });
});
