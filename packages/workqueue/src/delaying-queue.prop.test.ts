import { FakeClock } from '@ctrlkit/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTypedDelayingQueue } from './delaying-queue.js';

type Step = { type: 'addAfter'; key: number; delay: number } | { type: 'step'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    type: fc.constant('addAfter' as const),
    key: fc.integer({ min: 0, max: 20 }),
    delay: fc.integer({ min: 1, max: 1000 }),
  }),
  fc.record({ type: fc.constant('step' as const), ms: fc.integer({ min: 0, max: 400 }) }),
);

describe('delaying queue properties', () => {
  it('never lets a delayed item out early, and lets due items out earliest deadline first', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 150 }), async (steps) => {
        const clock = new FakeClock();
        const q = newTypedDelayingQueue<number>({ clock });
        const deadline = new Map<number, number>();
        for (const s of [...steps, { type: 'step' as const, ms: 2000 }]) {
          if (s.type === 'addAfter') {
            q.addAfter(s.key, s.delay);
            const readyAt = clock.now() + s.delay;
            deadline.set(s.key, Math.min(deadline.get(s.key) ?? Number.POSITIVE_INFINITY, readyAt));
            continue;
          }
          clock.step(s.ms);
          const expected = [...deadline].filter(([, at]) => at <= clock.now());
          const out: number[] = [];
          while (q.len() > 0) {
            const next = await q.get();
            out.push(next.item!);
            q.done(next.item!);
          }
          expect(out.sort((a, b) => a - b)).toEqual(expected.map(([k]) => k).sort((a, b) => a - b));
          for (const [key] of expected) deadline.delete(key);
        }
        expect(deadline.size).toBe(0);
      }),
    );
  });

  it('orders items that fall due together by deadline', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 100 }),
        async (delays) => {
          const clock = new FakeClock();
          const q = newTypedDelayingQueue<number>({ clock });
          for (const delay of delays) q.addAfter(delay, delay);
          clock.step(10_000);
          const out: number[] = [];
          while (q.len() > 0) out.push((await q.get()).item!);
          expect(out).toEqual([...delays].sort((a, b) => a - b));
        },
      ),
    );
  });
});
