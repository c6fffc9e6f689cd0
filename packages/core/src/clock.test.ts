import { describe, expect, it } from 'vitest';
import { realClock, sleep } from './clock.js';
import { FakeClock } from './testing/fake-clock.js';

describe('realClock', () => {
  it('now() is epoch milliseconds, within a second of Date.now()', () => {
    expect(Math.abs(realClock.now() - Date.now())).toBeLessThan(1000);
    expect(new Date(realClock.now()).getUTCFullYear()).toBe(new Date().getUTCFullYear());
  });

  it('now() never decreases', () => {
    let last = realClock.now();
    for (let i = 0; i < 1000; i++) {
      const now = realClock.now();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
  });

  it('a timer fires after its delay and a cancelled one does not', async () => {
    const start = realClock.now();
    const fired = await new Promise<number>((resolve) => {
      realClock.setTimer(() => resolve(realClock.now()), 20);
      realClock.setTimer(() => resolve(-1), 10).cancel();
    });
    expect(fired - start).toBeGreaterThanOrEqual(19);
  });

  it('a timer whose deadline already passed (a negative delay) fires at once, without a Node warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await new Promise<void>((resolve) => realClock.setTimer(resolve, -0.05));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutNegativeWarning');
  });
});

describe('sleep', () => {
  it('resolves once the clock passes the delay, and at once on abort, leaving no timer', async () => {
    const clock = new FakeClock(0);
    let woke = false;
    const slept = sleep(clock, 1000, new AbortController().signal).then(() => {
      woke = true;
    });
    clock.step(999);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.step(1);
    await slept;
    expect(woke).toBe(true);

    const abort = new AbortController();
    const cut = sleep(clock, 60_000, abort.signal);
    expect(clock.pendingTimers).toBe(1);
    abort.abort();
    await cut;
    expect(clock.pendingTimers).toBe(0);
    await sleep(clock, 60_000, abort.signal); // already aborted: resolves at once
  });
});
