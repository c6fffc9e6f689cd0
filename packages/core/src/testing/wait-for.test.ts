import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('returns the first done value, counting throws as not done', async () => {
    let calls = 0;
    const value = await waitFor(
      'the third call',
      () => {
        calls++;
        if (calls === 1) throw new Error('not yet');
        return calls >= 3 ? calls : 0;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
  });

  it('with until, returns the accepted value', async () => {
    let n = 0;
    await expect(
      waitFor('n to reach 2', () => ++n, { until: (v) => v >= 2, intervalMs: 1 }),
    ).resolves.toBe(2);
  });

  it('times out naming what it waited for and the last value or error', async () => {
    await expect(
      waitFor('the pod', () => ({ phase: 'Pending' }), {
        until: () => false,
        timeoutMs: 20,
        intervalMs: 5,
      }),
    ).rejects.toThrow(/waiting for the pod: the last value was \{"phase":"Pending"\}/);
    await expect(
      waitFor(
        'the node',
        () => {
          throw new Error('404');
        },
        { timeoutMs: 10, intervalMs: 5 },
      ),
    ).rejects.toThrow(/waiting for the node: the last check threw 404/);
  });

  it('rejects bad options', async () => {
    await expect(waitFor('x', () => true, { intervalMs: 0 })).rejects.toThrow(InvalidArgumentError);
  });
});
