import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { ReflectorHealth } from '../informers/reflector.js';
import { informerHealthCheck } from './informer-health-check.js';

describe('informerHealthCheck', () => {
  it('passes while every informer watches or lost its watch less than the bound ago, and fails naming those past it', () => {
    const clock = new FakeClock();
    const health = new Map<string, ReflectorHealth>([
      ['v1/pods', { state: 'watching', lastEventAtMs: clock.now(), unwatchedSinceMs: undefined }],
      [
        'v1/secrets in ns',
        { state: 'backing-off', lastEventAtMs: undefined, unwatchedSinceMs: clock.now() },
      ],
    ]);
    const check = informerHealthCheck(() => health, clock, 60_000);
    expect(() => check()).not.toThrow();
    clock.step(60_000);
    expect(() => check()).not.toThrow();
    clock.step(1_000);
    expect(() => check()).toThrow(
      'no working watch for over 60000 ms: v1/secrets in ns (backing-off for 61 s)',
    );
    health.set('v1/secrets in ns', {
      state: 'watching',
      lastEventAtMs: clock.now(),
      unwatchedSinceMs: undefined,
    });
    expect(() => check()).not.toThrow();
  });
});
