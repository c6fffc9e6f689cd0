import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { LeaderElector } from './leader-elector.js';
import {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  JITTER_FACTOR,
} from './leader-elector-options.js';
import type { ResourceLock } from './resource-lock.js';

/** A lock for constructing an elector that never runs: any call to the server fails the test. */
function unusedLock(identity: string): ResourceLock {
  const unused = (): never => {
    throw new Error('the lock is not used by these tests');
  };
  return {
    get: unused,
    create: unused,
    update: unused,
    recordEvent: unused,
    identity: () => identity,
    describe: () => 'unused/lock',
  };
}

describe('LeaderElector options', () => {
  it('exports client-go defaults', () => {
    expect(DEFAULT_LEASE_DURATION_MS).toBe(15_000);
    expect(DEFAULT_RENEW_DEADLINE_MS).toBe(10_000);
    expect(DEFAULT_RETRY_PERIOD_MS).toBe(2_000);
    expect(JITTER_FACTOR).toBe(1.2);
  });

  it.each([
    [{ leaseDurationMs: 10_000, renewDeadlineMs: 10_000 }, 'leaseDurationMs'],
    [{ renewDeadlineMs: 2_400, retryPeriodMs: 2_000 }, 'renewDeadlineMs'],
    [{ retryPeriodMs: 0 }, 'retryPeriodMs'],
    [{ leaseDurationMs: Number.NaN }, 'leaseDurationMs'],
  ])('rejects %o naming the field %s', (options, field) => {
    const make = () =>
      new LeaderElector({
        lock: unusedLock('a'),
        callbacks: { onStartedLeading() {}, onStoppedLeading() {} },
        ...options,
      });
    expect(make).toThrow(field);
    try {
      make();
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).reason).toBe('InvalidArgument');
      expect((error as InvalidArgumentError).field).toBe(field);
    }
  });

  it.each([
    ['leaseDuration', 'leaseDurationMs'],
    ['renewDeadline', 'renewDeadlineMs'],
    ['retryPeriod', 'retryPeriodMs'],
  ])('rejects the old name %s, naming the new one %s', (oldName, newName) => {
    const make = () =>
      new LeaderElector({
        lock: unusedLock('a'),
        callbacks: { onStartedLeading() {}, onStoppedLeading() {} },
        ...{ [oldName]: 5_000 },
      });
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(`invalid ${oldName}: renamed to ${newName}`);
  });

  it('rejects an empty identity', () => {
    expect(
      () =>
        new LeaderElector({
          lock: unusedLock(''),
          callbacks: { onStartedLeading() {}, onStoppedLeading() {} },
        }),
    ).toThrow(/lock\.identity/);
  });
});
