import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { newItemExponentialFailureRateLimiter } from './default-rate-limiters.js';
import { MaxRetriesError } from './max-retries-error.js';
import { newTypedRateLimitingQueue } from './rate-limiting-queue.js';
import { MaxRetries, runWorkers } from './workers.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function logCollector() {
  const errors: Array<{ context: object; message: string | undefined }> = [];
  const ignore = () => {};
  return {
    errors,
    logger: {
      debug: ignore,
      info: ignore,
      warn: ignore,
      error: (context: object, message?: string) => void errors.push({ context, message }),
    },
  };
}

describe('runWorkers', () => {
  it('handles every item and forgets it on success', async () => {
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000), {
      clock: new FakeClock(),
    });
    const controller = new AbortController();
    const handled: string[] = [];
    const running = runWorkers(q, (item) => void handled.push(item), {
      workers: 4,
      signal: controller.signal,
    });
    for (const item of ['a', 'b', 'c']) q.add(item);
    await tick();
    expect(handled.sort()).toEqual(['a', 'b', 'c']);
    controller.abort();
    await running;
    expect(q.shuttingDown()).toBe(true);
  });

  it('never runs one item in two workers at once', async () => {
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000));
    const controller = new AbortController();
    const inFlight = new Set<string>();
    let overlaps = 0;
    let runs = 0;
    const running = runWorkers(
      q,
      async (item) => {
        if (inFlight.has(item)) overlaps++;
        inFlight.add(item);
        runs++;
        await tick();
        inFlight.delete(item);
      },
      { workers: 8, signal: controller.signal },
    );
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 5; i++) q.add(`k${i}`);
      await tick();
    }
    controller.abort();
    await running;
    expect(overlaps).toBe(0);
    expect(runs).toBeGreaterThanOrEqual(5);
  });

  it('retries with the rate limiter up to MaxRetries, then drops with a logged error (handler runs 20 times)', async () => {
    const clock = new FakeClock();
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000), {
      clock,
    });
    const controller = new AbortController();
    const { errors, logger } = logCollector();
    let runs = 0;
    const running = runWorkers(
      q,
      () => {
        runs++;
        throw new Error('boom');
      },
      { workers: 1, signal: controller.signal, logger, clock },
    );
    q.add('key');
    for (let i = 0; i < 50; i++) {
      await tick();
      clock.step(1000);
    }
    expect(runs).toBe(MaxRetries);
    expect(errors).toHaveLength(1);
    const dropped = (errors[0]!.context as { err: unknown }).err;
    expect(MaxRetriesError.isInstance(dropped)).toBe(true);
    expect((dropped as Error).message).toBe('maximum retries (20) reached');
    expect(q.numRequeues('key')).toBe(0);
    controller.abort();
    await running;
  });

  it('honours a custom retry delay, with timesTried and originallyAdded', async () => {
    const clock = new FakeClock(1000);
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000), {
      clock,
    });
    const controller = new AbortController();
    const calls: Array<[number, number]> = [];
    let runs = 0;
    const running = runWorkers(
      q,
      () => {
        runs++;
        if (runs < 3) throw new Error('not yet');
      },
      {
        workers: 1,
        signal: controller.signal,
        clock,
        shouldRetry: (_signal, _item, timesTried, originallyAdded) => {
          calls.push([timesTried, originallyAdded]);
          return 250;
        },
      },
    );
    q.add('key');
    await tick();
    expect(runs).toBe(1);
    clock.step(249);
    await tick();
    expect(runs).toBe(1);
    clock.step(1);
    await tick();
    expect(runs).toBe(2);
    clock.step(250);
    await tick();
    expect(runs).toBe(3);
    expect(calls).toEqual([
      [1, 1000],
      [2, 1000],
    ]);
    controller.abort();
    await running;
  });

  it('still handles queued items after the signal fires, then resolves', async () => {
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000));
    const controller = new AbortController();
    controller.abort();
    for (const item of ['a', 'b']) q.add(item);
    const handled: string[] = [];
    await runWorkers(q, (item) => void handled.push(item), {
      workers: 2,
      signal: controller.signal,
    });
    expect(handled.sort()).toEqual(['a', 'b']);
  });

  it('rejects bad options, naming the field', async () => {
    const q = newTypedRateLimitingQueue(newItemExponentialFailureRateLimiter<string>(1, 1000));
    const signal = new AbortController().signal;
    await expect(runWorkers(q, () => {}, { workers: 0, signal })).rejects.toThrow(
      /options\.workers/,
    );
    await expect(runWorkers(q, () => {}, { workers: 1 } as never)).rejects.toThrow(
      /options\.signal/,
    );
    await expect(
      runWorkers(q, () => {}, { workers: 1, signal, retries: 3 } as never),
    ).rejects.toThrow(/options\.retries: unknown option/);
    q.shutDown();
  });
});
