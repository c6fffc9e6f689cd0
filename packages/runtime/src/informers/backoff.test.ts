import { InvalidArgumentError, sleep } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import {
  Backoff,
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_BACKOFF_RESET_MS,
} from './backoff.js';

describe('Backoff', () => {
  it('starts at 800 ms and doubles per consecutive failure (no jitter)', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({ clock, jitter: 0 });
    const delays = [];
    for (let i = 0; i < 6; i++) {
      delays.push(backoff.next());
      clock.step(10);
    }
    expect(delays).toEqual([800, 1600, 3200, 6400, 12_800, 25_600]);
  });

  it('caps the base wait at 30 s', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({ clock, jitter: 0 });
    let last = 0;
    for (let i = 0; i < 20; i++) {
      last = backoff.next();
      clock.step(1);
    }
    expect(last).toBe(DEFAULT_BACKOFF_MAX_MS);
  });

  it('keeps jittered waits within [base, 2·base) with the default jitter of 1', () => {
    for (const r of [0, 0.25, 0.5, 0.999]) {
      const clock = new FakeClock();
      const backoff = new Backoff({ clock, random: () => r });
      const first = backoff.next();
      expect(first).toBeGreaterThanOrEqual(800);
      expect(first).toBeLessThan(1600);
      expect(first).toBeCloseTo(800 * (1 + r));
      for (let i = 0; i < 20; i++) backoff.next();
      expect(backoff.next()).toBeCloseTo(30_000 * (1 + r));
    }
  });

  it('starts over at 800 ms after a quiet period of 2 minutes', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({ clock, jitter: 0 });
    backoff.next();
    backoff.next();
    expect(backoff.next()).toBe(3200);
    clock.step(DEFAULT_BACKOFF_RESET_MS - 1);
    expect(backoff.next()).toBe(6400);
    clock.step(DEFAULT_BACKOFF_RESET_MS + 1);
    expect(backoff.next()).toBe(DEFAULT_BACKOFF_INITIAL_MS);
  });

  it('reset() forgets past failures', () => {
    const backoff = new Backoff({ clock: new FakeClock(), jitter: 0 });
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(800);
  });

  it('wait() sleeps on the clock and returns early on abort', async () => {
    const clock = new FakeClock();
    const backoff = new Backoff({ clock, jitter: 0 });
    let done = false;
    const waiting = backoff.wait(new AbortController().signal).then((ms) => {
      done = true;
      return ms;
    });
    clock.step(799);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.step(1);
    expect(await waiting).toBe(800);
    const controller = new AbortController();
    const aborted = sleep(clock, 60_000, controller.signal);
    controller.abort();
    await aborted;
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects invalid options naming the field', () => {
    expect(() => new Backoff({ initialMs: 0 })).toThrow(/initialMs/);
    expect(() => new Backoff({ initialMs: 10, maxMs: 5 })).toThrow(/maxMs/);
    expect(() => new Backoff({ factor: 0.5 })).toThrow(/factor/);
    expect(() => new Backoff({ jitter: -1 })).toThrow(/jitter/);
    try {
      new Backoff({ resetMs: Number.NaN });
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).field).toBe('resetMs');
    }
  });
});
