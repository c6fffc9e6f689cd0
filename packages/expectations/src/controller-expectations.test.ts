import { describe, expect, it } from 'vitest';
import {
  BurstReplicas,
  ControllerExpectations,
  DefaultExpectationsName,
  ExpectationsTimeout,
} from './controller-expectations.js';
import { FakeClock, RecordingLogger } from './testing.js';

const key = 'default/rs';

function setup(timeout?: number) {
  const clock = new FakeClock(1_000);
  const logger = new RecordingLogger();
  const exp = new ControllerExpectations({
    clock,
    logger,
    name: 'test',
    ...(timeout ? { timeoutMs: timeout } : {}),
  });
  return { clock, logger, exp };
}

const counts = (exp: ControllerExpectations, k = key) => exp.getExpectations(k)?.getExpectations();

describe('constants', () => {
  it('ExpectationsTimeout is 5 minutes in ms and BurstReplicas is 250', () => {
    expect(ExpectationsTimeout).toBe(300_000);
    expect(BurstReplicas).toBe(250);
    expect(DefaultExpectationsName).toBe('n/a');
  });
});

describe('ControllerExpectations', () => {
  it('upstream "ControllerExpectations": concurrent observations, negative counters, reset and TTL expiry', async () => {
    const clock = new FakeClock(0);
    const exp = new ControllerExpectations({ clock, timeoutMs: 30_000 });
    const adds = 10;
    const dels = 30;
    exp.setExpectations(key, adds, dels);
    // One more creation than expected, from concurrent workers that await between calls.
    await Promise.all(
      Array.from({ length: adds + 1 }, async () => {
        await Promise.resolve();
        exp.creationObserved(key);
      }),
    );
    expect(exp.satisfiedExpectations(key)).toBe(false); // deletions still pending
    await Promise.all(
      Array.from({ length: dels + 1 }, async () => {
        await Promise.resolve();
        exp.deletionObserved(key);
      }),
    );
    expect(exp.satisfiedExpectations(key)).toBe(true);
    expect(counts(exp)).toEqual([-1, -1]);

    exp.setExpectations(key, 1, 2);
    expect(counts(exp)).toEqual([1, 2]);
    expect(exp.satisfiedExpectations(key)).toBe(false);
    clock.step(31_000);
    expect(exp.satisfiedExpectations(key)).toBe(true);
  });

  it('a key with no record is satisfied and getExpectations returns undefined', () => {
    const { exp } = setup();
    expect(exp.satisfiedExpectations(key)).toBe(true);
    expect(exp.getExpectations(key)).toBeUndefined();
  });

  it('expiry is strict: unfulfilled exactly at the TTL is not satisfied, 1 ms later it is', () => {
    const { clock, exp } = setup();
    exp.expectCreations(key, 3);
    clock.step(ExpectationsTimeout);
    expect(exp.satisfiedExpectations(key)).toBe(false);
    clock.step(1);
    expect(exp.satisfiedExpectations(key)).toBe(true);
  });

  it('an expired record stays stored: expiry only counts it as satisfied', () => {
    const { clock, exp } = setup(10);
    exp.expectCreations(key, 1);
    clock.step(11);
    expect(exp.satisfiedExpectations(key)).toBe(true);
    expect(counts(exp)).toEqual([1, 0]);
  });

  it('setExpectations replaces the record, losing the other counter and restarting the timer', () => {
    const { clock, exp } = setup();
    exp.setExpectations(key, 2, 3);
    const first = exp.getExpectations(key)!;
    clock.step(ExpectationsTimeout + 1);
    expect(exp.satisfiedExpectations(key)).toBe(true);
    exp.expectDeletions(key, 1);
    expect(counts(exp)).toEqual([0, 1]);
    expect(exp.getExpectations(key)).not.toBe(first);
    expect(exp.getExpectations(key)!.timestamp).toBe(clock.now());
    expect(exp.satisfiedExpectations(key)).toBe(false);
    exp.expectCreations(key, 4);
    expect(counts(exp)).toEqual([4, 0]);
  });

  it('raise and lower change both counters and keep the timestamp', () => {
    const { clock, exp } = setup();
    exp.setExpectations(key, 1, 1);
    const ts = exp.getExpectations(key)!.timestamp;
    clock.step(500);
    exp.raiseExpectations(key, 2, 3);
    expect(counts(exp)).toEqual([3, 4]);
    exp.lowerExpectations(key, 1, 4);
    expect(counts(exp)).toEqual([2, 0]);
    expect(exp.getExpectations(key)!.timestamp).toBe(ts);
  });

  it('lowering below zero goes negative and still counts as fulfilled', () => {
    const { exp } = setup();
    exp.expectCreations(key, 1);
    exp.lowerExpectations(key, 3, 2);
    expect(counts(exp)).toEqual([-2, -2]);
    expect(exp.getExpectations(key)!.fulfilled()).toBe(true);
    expect(exp.satisfiedExpectations(key)).toBe(true);
  });

  it('raise, lower and observe on a key with no record do nothing and create no record', () => {
    const { exp, logger } = setup();
    exp.raiseExpectations(key, 1, 1);
    exp.lowerExpectations(key, 1, 1);
    exp.creationObserved(key);
    exp.deletionObserved(key);
    expect(exp.getExpectations(key)).toBeUndefined();
    expect(exp.allPendingCreations()).toBe(0);
    expect(logger.entries).toEqual([]);
  });

  it('creationObserved and deletionObserved lower one counter each', () => {
    const { exp } = setup();
    exp.setExpectations(key, 2, 2);
    exp.creationObserved(key);
    expect(counts(exp)).toEqual([1, 2]);
    exp.deletionObserved(key);
    expect(counts(exp)).toEqual([1, 1]);
  });

  it('deleteExpectations removes the record and is a no-op when absent', () => {
    const { exp } = setup();
    exp.deleteExpectations(key);
    exp.expectCreations(key, 2);
    expect(exp.satisfiedExpectations(key)).toBe(false);
    exp.deleteExpectations(key);
    expect(exp.getExpectations(key)).toBeUndefined();
    expect(exp.satisfiedExpectations(key)).toBe(true);
    expect(exp.allPendingCreations()).toBe(0);
  });

  it('allPendingCreations sums add over all records, negatives included', () => {
    const { exp } = setup();
    exp.expectCreations('a/1', 5);
    exp.expectCreations('a/2', 2);
    exp.lowerExpectations('a/2', 4, 0);
    exp.expectDeletions('a/3', 7);
    expect(exp.allPendingCreations()).toBe(3);
  });

  it('a zero expectation is fulfilled at once', () => {
    const { exp } = setup();
    exp.setExpectations(key, 0, 0);
    expect(exp.satisfiedExpectations(key)).toBe(true);
  });

  it('logs a debug line naming the key and counts for every change and check', () => {
    const { exp, logger } = setup();
    exp.setExpectations(key, 1, 0);
    exp.creationObserved(key);
    exp.satisfiedExpectations(key);
    exp.deleteExpectations(key);
    exp.satisfiedExpectations(key);
    expect(logger.entries.map((e) => [e.level, e.msg, (e.obj as { key: string }).key])).toEqual([
      ['debug', 'setting expectations', key],
      ['debug', 'lowered expectations', key],
      ['debug', 'controller expectations fulfilled', key],
      ['debug', 'deleted expectations', key],
      ['debug', 'controller either never recorded expectations, or they were deleted', key],
    ]);
    expect(logger.entries[0]!.obj).toMatchObject({
      name: 'test',
      add: 1,
      del: 0,
      timestamp: 1_000,
    });
  });

  it('logs whether an unfulfilled record is still waiting or expired', () => {
    const { clock, exp, logger } = setup(10);
    exp.setExpectations(key, 1, 0);
    exp.satisfiedExpectations(key);
    clock.step(11);
    exp.satisfiedExpectations(key);
    expect(logger.entries.slice(1).map((e) => e.msg)).toEqual([
      'controller still waiting on expectations',
      'controller expectations expired',
    ]);
  });

  it('rejects bad arguments with an error naming the field, and changes nothing', () => {
    const { exp } = setup();
    exp.setExpectations(key, 1, 1);
    const cases: Array<[() => void, string]> = [
      [() => exp.setExpectations('', 1, 1), 'controllerKey'],
      [() => exp.setExpectations(key, -1, 0), 'add'],
      [() => exp.setExpectations(key, 0, Number.NaN), 'del'],
      [() => exp.expectCreations(key, 1.5), 'add'],
      [() => exp.expectDeletions(key, -3), 'del'],
      [() => exp.raiseExpectations(key, -1, 0), 'add'],
      [() => exp.lowerExpectations(key, 0, -1), 'del'],
      [() => exp.satisfiedExpectations(''), 'controllerKey'],
      [() => exp.getExpectations(42 as unknown as string), 'controllerKey'],
      [() => exp.deleteExpectations(''), 'controllerKey'],
      [() => exp.creationObserved(''), 'controllerKey'],
    ];
    for (const [call, field] of cases) {
      expect(call, field).toThrow(
        expect.objectContaining({
          reason: 'InvalidArgument',
          field,
          message: expect.stringContaining(field),
        }),
      );
    }
    expect(counts(exp)).toEqual([1, 1]);
  });

  it('validates its options at construction', () => {
    expect(() => new ControllerExpectations({ timeoutMs: -1 })).toThrow(/options\.timeoutMs/);
    expect(() => new ControllerExpectations({ timeoutMs: Number.NaN })).toThrow(
      /options\.timeoutMs/,
    );
    expect(() => new ControllerExpectations({ timeout: 30_000 } as never)).toThrow(
      'invalid options.timeout: renamed to options.timeoutMs',
    );
    expect(() => new ControllerExpectations({ name: '' })).toThrow(/options\.name/);
    expect(() => new ControllerExpectations({ clock: {} as never })).toThrow(/options\.clock/);
    expect(() => new ControllerExpectations({ logger: { debug() {} } as never })).toThrow(
      /options\.logger/,
    );
    expect(new ControllerExpectations().name).toBe('n/a');
  });

  it('defaults to the real clock and the 5-minute timeout', () => {
    const exp = new ControllerExpectations();
    exp.expectCreations(key, 1);
    const ts = exp.getExpectations(key)!.timestamp;
    expect(Math.abs(ts - Date.now())).toBeLessThan(60_000);
    expect(exp.satisfiedExpectations(key)).toBe(false);
  });

  it('concurrent workers interleaving across awaits lose no update', async () => {
    const { exp } = setup();
    const keys = ['a/1', 'a/2', 'a/3'];
    for (const k of keys) exp.setExpectations(k, 100, 100);
    const worker = async (k: string) => {
      for (let i = 0; i < 50; i++) {
        exp.creationObserved(k);
        await Promise.resolve();
        exp.deletionObserved(k);
        await new Promise((r) => setImmediate(r));
      }
    };
    await Promise.all(keys.flatMap((k) => [worker(k), worker(k)]));
    for (const k of keys) expect(counts(exp, k)).toEqual([0, 0]);
  });
});
