import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTyped } from './queue.js';

type Action =
  | { type: 'add'; key: number }
  | { type: 'get'; worker: number }
  | { type: 'done'; worker: number };

const WORKERS = 4;
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('add' as const), key: fc.integer({ min: 0, max: 7 }) }),
  fc.record({
    type: fc.constant('get' as const),
    worker: fc.integer({ min: 0, max: WORKERS - 1 }),
  }),
  fc.record({
    type: fc.constant('done' as const),
    worker: fc.integer({ min: 0, max: WORKERS - 1 }),
  }),
);

interface Worker {
  waiting: boolean;
  holding: number | undefined;
}

/**
 * Runs a random interleaving of adds and worker steps, then drains the queue with
 * shutDownWithDrain while the workers finish, and checks the guarantees on the trace.
 */
async function runTrace(actions: Action[]) {
  const q = newTyped<number>();
  const workers: Worker[] = Array.from({ length: WORKERS }, () => ({
    waiting: false,
    holding: undefined,
  }));
  let clock = 0;
  const lastAdd = new Map<number, number>();
  const starts = new Map<number, number[]>();
  const held = new Set<number>();
  let overlaps = 0;

  const get = (w: Worker) => {
    w.waiting = true;
    void q.get().then((next) => {
      w.waiting = false;
      if (next.shutdown) return;
      if (held.has(next.item)) overlaps++;
      held.add(next.item);
      w.holding = next.item;
      starts.set(next.item, [...(starts.get(next.item) ?? []), clock++]);
    });
  };
  const done = (w: Worker) => {
    if (w.holding === undefined) return;
    held.delete(w.holding);
    q.done(w.holding);
    w.holding = undefined;
  };

  for (const a of actions) {
    if (a.type === 'add') {
      q.add(a.key);
      lastAdd.set(a.key, clock++);
    } else {
      const w = workers[a.worker]!;
      if (a.type === 'get' && !w.waiting && w.holding === undefined) get(w);
      if (a.type === 'done') done(w);
    }
    await null;
  }

  const drained = q.shutDownWithDrain();
  for (let round = 0; round < 1000 && !(q.len() === 0 && held.size === 0); round++) {
    for (const w of workers) {
      done(w);
      if (!w.waiting) get(w);
    }
    await null;
  }
  for (const w of workers) done(w);
  await drained;
  return { overlaps, lastAdd, starts, remaining: q.len() };
}

describe('queue properties', () => {
  it('never hands one item to two workers at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 200 }), async (actions) => {
        const { overlaps } = await runTrace(actions);
        expect(overlaps).toBe(0);
      }),
    );
  });

  it('processes every added item at least once after its last add, and loses nothing across shutDownWithDrain', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 200 }), async (actions) => {
        const { lastAdd, starts, remaining } = await runTrace(actions);
        expect(remaining).toBe(0);
        for (const [key, addedAt] of lastAdd) {
          const after = (starts.get(key) ?? []).filter((s) => s > addedAt);
          expect(after.length, `item ${key} added at ${addedAt}`).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });
});
