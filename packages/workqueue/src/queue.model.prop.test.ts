// The queue against a reference model of client-go's `Typed` queue, written as client-go keeps
// it (a dirty set, a processing set, a FIFO): any sequence of adds, gets, dones and a shutdown
// (shutdown at any point) gives the same hand-outs, lengths, touches and drain as the model.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTyped, type Queue } from './queue.js';

/** An item whose identity is `id`; `v` tells apart two items of one key. */
interface Item {
  id: number;
  v: number;
}

type Step =
  | { type: 'add'; id: number; v: number }
  | { type: 'get' }
  | { type: 'done'; pick: number }
  | { type: 'doneUnheld'; id: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('add' as const),
      id: fc.integer({ min: 0, max: 3 }),
      v: fc.nat(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('get' as const) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('done' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('doneUnheld' as const),
      id: fc.integer({ min: 0, max: 3 }),
    }),
  },
);
/** The steps, and after how many of them the queue is shut down (never when past the end). */
const trace = fc.tuple(fc.array(step, { maxLength: 120 }), fc.noBias(fc.nat({ max: 150 })));

/** client-go's queue.go, kept the way it is written there. */
class Model {
  readonly dirty = new Map<number, Item>();
  readonly processing = new Set<number>();
  readonly queue: Item[] = [];
  readonly touched: Item[] = [];
  shuttingDown = false;

  add(item: Item, touches: boolean): void {
    if (this.shuttingDown) return;
    if (this.dirty.has(item.id)) {
      if (touches && !this.processing.has(item.id)) this.touched.push(item);
      return;
    }
    this.dirty.set(item.id, item);
    if (this.processing.has(item.id)) return;
    this.queue.push(item);
  }

  get(): Item | undefined {
    const item = this.queue.shift();
    if (item === undefined) return undefined;
    this.processing.add(item.id);
    this.dirty.delete(item.id);
    return item;
  }

  done(item: Item): void {
    if (!this.processing.delete(item.id)) return;
    const again = this.dirty.get(item.id);
    if (again !== undefined) this.queue.push(again);
  }
}

/** A FIFO store that records touches, so the hook's calls can be compared. */
function recordingStore(touched: Item[]): Queue<Item> {
  const items: Item[] = [];
  return {
    touch: (item) => void touched.push(item),
    push: (item) => void items.push(item),
    len: () => items.length,
    pop: () => items.shift()!,
  };
}

/** Resolves whether `promise` settled within a tick. */
async function settles(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

async function run([steps, shutDownAt]: [Step[], number], touches: boolean): Promise<void> {
  const model = new Model();
  const touched: Item[] = [];
  const q = newTyped<Item>({
    keyFunc: (item) => item.id,
    ...(touches ? { queue: recordingStore(touched) } : {}),
  });
  const held: Item[] = [];
  for (const [at, s] of steps.entries()) {
    if (at === shutDownAt) {
      q.shutDown();
      model.shuttingDown = true;
    }
    if (s.type === 'add') {
      const item = { id: s.id, v: s.v };
      q.add(item);
      model.add(item, touches);
    } else if (s.type === 'get') {
      const expected = model.get();
      if (expected === undefined) continue;
      const next = await q.get();
      expect(next).toEqual({ item: expected, shutdown: false });
      expect(next.item).toBe(expected);
      held.push(expected);
    } else if (s.type === 'done' && held.length > 0) {
      const [item] = held.splice(s.pick % held.length, 1);
      q.done(item!);
      model.done(item!);
    } else if (s.type === 'doneUnheld' && !held.some((item) => item.id === s.id)) {
      q.done({ id: s.id, v: -1 });
      model.done({ id: s.id, v: -1 });
    }
    expect(q.len()).toBe(model.queue.length);
  }
  expect(touched).toEqual(model.touched);
  const drained = q.shutDownWithDrain();
  model.shuttingDown = true;
  expect(await settles(drained)).toBe(model.processing.size === 0);
  if (model.queue.length === 0) expect(await q.get()).toEqual({ item: undefined, shutdown: true });
}

describe('queue against a model of client-go', () => {
  it('hands out the same items, in the same order, with the same lengths and drain', async () => {
    await fc.assert(
      fc.asyncProperty(trace, (t) => run(t, false)),
      { numRuns: 500 },
    );
  });

  it('calls touch exactly when client-go does: a re-add of a waiting item, not of one in processing', async () => {
    await fc.assert(
      fc.asyncProperty(trace, (t) => run(t, true)),
      { numRuns: 500 },
    );
  });
});
