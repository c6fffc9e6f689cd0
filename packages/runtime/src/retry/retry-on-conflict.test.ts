import { InvalidArgumentError, isConflict, type Timer } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BACKOFF,
  DEFAULT_RETRY,
  onError,
  type RetryBackoff,
  retryOnConflict,
} from './retry-on-conflict.js';

/** A fake clock that records each wait asked of it. */
class RecordingClock extends FakeClock {
  readonly waits: number[] = [];
  override setTimer(callback: () => void, delayMs: number): Timer {
    this.waits.push(delayMs);
    return super.setTimer(callback, delayMs);
  }
}

/** Runs `promise` to the end, stepping the clock over each wait. */
async function drive<T>(clock: RecordingClock, promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    if (clock.pendingTimers > 0) clock.step(clock.waits.at(-1) ?? 0);
  }
  return promise;
}

const conflict = () => new ApiException(409, 'Conflict', { reason: 'Conflict' }, {});

describe('retryOnConflict', () => {
  it('DefaultRetry: 5 attempts, 10 ms apart plus up to 10% jitter, then the last conflict', async () => {
    const clock = new RecordingClock();
    let attempts = 0;
    const error = await drive(
      clock,
      retryOnConflict(
        DEFAULT_RETRY,
        () => {
          attempts++;
          throw conflict();
        },
        { clock, random: () => 0.5 },
      ).catch((e: unknown) => e),
    );
    expect(attempts).toBe(5);
    expect(clock.waits).toEqual([10.5, 10.5, 10.5, 10.5]);
    expect(isConflict(error)).toBe(true);
  });

  it('DefaultBackoff: 4 attempts, waits of 10, 50 and 250 ms', async () => {
    const clock = new RecordingClock();
    let attempts = 0;
    await drive(
      clock,
      retryOnConflict(
        DEFAULT_BACKOFF,
        () => {
          attempts++;
          throw conflict();
        },
        { clock, random: () => 0 },
      ).catch(() => undefined),
    );
    expect(attempts).toBe(4);
    expect(clock.waits).toEqual([10, 50, 250]);
  });

  it('returns the first success, after the conflicts before it', async () => {
    const clock = new RecordingClock();
    let attempts = 0;
    const result = await drive(
      clock,
      retryOnConflict(
        DEFAULT_RETRY,
        async () => {
          attempts++;
          if (attempts < 3) throw conflict();
          return 'written';
        },
        { clock, random: () => 0 },
      ),
    );
    expect(result).toBe('written');
    expect(attempts).toBe(3);
    expect(clock.waits).toEqual([10, 10]);
  });

  it('throws any other error at once', async () => {
    let attempts = 0;
    const notFound = new ApiException(404, 'Not Found', {}, {});
    await expect(
      retryOnConflict(DEFAULT_RETRY, () => {
        attempts++;
        throw notFound;
      }),
    ).rejects.toBe(notFound);
    expect(attempts).toBe(1);
  });

  it('stops at the cap, after the capped wait, as apimachinery does', async () => {
    const clock = new RecordingClock();
    let attempts = 0;
    const backoff: RetryBackoff = { steps: 10, durationMs: 10, factor: 3, jitter: 0, capMs: 50 };
    await drive(
      clock,
      onError(
        backoff,
        () => true,
        () => {
          attempts++;
          throw new Error('again');
        },
        { clock },
      ).catch(() => undefined),
    );
    // After the 30 ms wait the next base (90) would pass the cap: apimachinery's
    // Backoff.Step() sets steps to 0 there, so no attempt follows that wait.
    expect(clock.waits).toEqual([10, 30]);
    expect(attempts).toBe(2);
  });

  it('stops waiting when the signal aborts, and throws the last error', async () => {
    const clock = new RecordingClock();
    const stop = new AbortController();
    let attempts = 0;
    const result = retryOnConflict(
      DEFAULT_RETRY,
      () => {
        attempts++;
        throw conflict();
      },
      { clock, signal: stop.signal },
    );
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    await expect(result).rejects.toMatchObject({ code: 409 });
    expect(attempts).toBe(1);
  });

  it.each([
    ['backoff.steps', { ...DEFAULT_RETRY, steps: 0 }],
    ['backoff.durationMs', { ...DEFAULT_RETRY, durationMs: -1 }],
    ['backoff.jitter', { ...DEFAULT_RETRY, jitter: Number.NaN }],
    ['backoff.capMs', { ...DEFAULT_RETRY, capMs: Number.POSITIVE_INFINITY }],
  ])('rejects an invalid %s before calling fn', async (field, backoff) => {
    let called = false;
    const error = await retryOnConflict(backoff, () => {
      called = true;
    }).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).field).toBe(field);
    expect(called).toBe(false);
  });
});
