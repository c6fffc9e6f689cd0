import { describe, expect, it } from 'vitest';
import { parallelizeUntil } from './parallelizer.js';

describe('parallelizeUntil', () => {
  it.each([
    [1000, 10, 1],
    [1000, 10, 10],
    [1000, 10, 100],
    [999, 10, 13],
  ])(
    'visits each of %i pieces exactly once (%i workers, chunk %i)',
    async (pieces, workers, chunkSize) => {
      const visits = new Array<number>(pieces).fill(0);
      let running = 0;
      let maxRunning = 0;
      await parallelizeUntil(
        undefined,
        workers,
        pieces,
        async (piece) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await Promise.resolve();
          visits[piece]!++;
          running--;
        },
        { chunkSize },
      );
      expect(visits.every((v) => v === 1)).toBe(true);
      expect(maxRunning).toBeLessThanOrEqual(workers);
    },
  );

  it('does nothing for zero pieces and starts no piece after the signal fires', async () => {
    let calls = 0;
    await parallelizeUntil(undefined, 4, 0, () => void calls++);
    expect(calls).toBe(0);
    const controller = new AbortController();
    await parallelizeUntil(controller.signal, 2, 100, (piece) => {
      calls++;
      if (piece === 10) controller.abort();
    });
    expect(calls).toBeLessThan(20);
  });
});
