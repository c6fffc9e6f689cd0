import { describe, expect, it } from 'vitest';
import { FakeClock } from './testing/fake-clock.js';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('lets the burst through at once, then one token every 1/qps seconds', () => {
    const clock = new FakeClock(0);
    const bucket = new TokenBucket(10, 2, clock);
    expect([bucket.reserve(), bucket.reserve()]).toEqual([0, 0]);
    expect(bucket.reserve()).toBeCloseTo(100);
    expect(bucket.reserve()).toBeCloseTo(200);
    clock.step(1_000);
    // refilled up to the burst, less the two tokens reserved ahead
    expect(bucket.reserve()).toBe(0);
  });

  it('never waits with qps Infinity', () => {
    const bucket = new TokenBucket(Number.POSITIVE_INFINITY, 1, new FakeClock(0));
    for (let i = 0; i < 5; i++) expect(bucket.reserve()).toBe(0);
  });
});
