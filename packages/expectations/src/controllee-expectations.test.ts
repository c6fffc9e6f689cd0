import { describe, expect, it } from 'vitest';
import { ControlleeExpectations, expKeyFunc } from './controllee-expectations.js';

describe('ControlleeExpectations', () => {
  it('add increments both counters; negative deltas decrement', () => {
    const e = new ControlleeExpectations('ns/a', 1, 2, 10);
    e.add(2, 3);
    expect(e.getExpectations()).toEqual([3, 5]);
    e.add(-4, -5);
    expect(e.getExpectations()).toEqual([-1, 0]);
  });

  it('is fulfilled only when both counters are <= 0', () => {
    expect(new ControlleeExpectations('k', 0, 0, 0).fulfilled()).toBe(true);
    expect(new ControlleeExpectations('k', -1, 0, 0).fulfilled()).toBe(true);
    expect(new ControlleeExpectations('k', 1, 0, 0).fulfilled()).toBe(false);
    expect(new ControlleeExpectations('k', 0, 1, 0).fulfilled()).toBe(false);
  });

  it('expires strictly after the timeout', () => {
    const e = new ControlleeExpectations('k', 1, 0, 100);
    expect(e.isExpired(150, 50)).toBe(false);
    expect(e.isExpired(151, 50)).toBe(true);
  });

  it('toString and toJSON show key, timestamp, add and del', () => {
    const e = new ControlleeExpectations('ns/a', 1, 2, 10);
    expect(String(e)).toBe('ControlleeExpectations{key: ns/a, timestamp: 10, add: 1, del: 2}');
    expect(JSON.parse(JSON.stringify(e))).toEqual({ key: 'ns/a', timestamp: 10, add: 1, del: 2 });
  });

  it('rejects an empty key and non-integer counters', () => {
    expect(() => new ControlleeExpectations('', 0, 0, 0)).toThrow(/key/);
    expect(() => new ControlleeExpectations('k', 0.5, 0, 0)).toThrow(/add/);
    const e = new ControlleeExpectations('k', 0, 0, 0);
    expect(() => e.add(0, Number.POSITIVE_INFINITY)).toThrow(/del/);
    expect(e.getExpectations()).toEqual([0, 0]);
  });
});

describe('expKeyFunc', () => {
  it('returns the key of a record', () => {
    expect(expKeyFunc(new ControlleeExpectations('ns/a', 0, 0, 0))).toBe('ns/a');
  });

  it('throws a KeyFuncError for anything else', () => {
    for (const v of [{ key: 'ns/a' }, 'ns/a', undefined]) {
      expect(() => expKeyFunc(v)).toThrow(
        expect.objectContaining({ reason: 'KeyFunc', keyFunc: 'expKeyFunc' }),
      );
    }
  });
});
