import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { DEFAULT_FAKE_CLOCK_START_MS, FakeClock } from './fake-clock.js';

describe('FakeClock', () => {
  it('starts at an epoch time by default, so new Date(clock.now()) is a sensible date', () => {
    const clock = new FakeClock();
    expect(clock.now()).toBe(DEFAULT_FAKE_CLOCK_START_MS);
    expect(new Date(clock.now()).toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('fires due timers in time order as it steps, tickers repeatedly', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimer(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimer(() => fired.push(`a@${clock.now()}`), 10);
    const ticker = clock.setTicker(() => fired.push(`t@${clock.now()}`), 15);
    clock.step(30);
    expect(fired).toEqual(['a@10', 't@15', 'b@20', 't@30']);
    ticker.cancel();
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects bad arguments with InvalidArgumentError naming them', () => {
    const clock = new FakeClock();
    for (const [field, call] of [
      ['ms', () => clock.step(-1)],
      ['ms', () => clock.setTime(clock.now() - 1)],
      ['periodMs', () => clock.setTicker(() => {}, 0)],
      ['startMs', () => new FakeClock(Number.NaN)],
    ] as const) {
      const error = (() => {
        try {
          call();
        } catch (e) {
          return e;
        }
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).field).toBe(field);
    }
  });
});
