import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { newTyped, type Queue, type TypedInterface } from './queue.js';

/** Lets pending promise callbacks and immediates run. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves to 'pending' if `promise` has not settled after a tick. */
async function settled<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, tick().then(() => 'pending' as const)]);
}

/** A queue with `foo` and `bar` added and both handed out. */
async function twoHandedOut(): Promise<TypedInterface<string>> {
  const q = newTyped<string>();
  q.add('foo');
  q.add('bar');
  await q.get();
  await q.get();
  return q;
}

async function basic(shutDown: (q: TypedInterface<number | string>) => Promise<void> | void) {
  const q = newTyped<number | string>();
  const producers = Array.from({ length: 50 }, async (_, p) => {
    for (let j = 0; j < 50; j++) {
      q.add(p * 50 + j);
      await tick();
    }
  });
  const seen: Array<number | string> = [];
  const consumers = Array.from({ length: 10 }, async () => {
    for (;;) {
      const next = await q.get();
      if (next.shutdown) return;
      seen.push(next.item);
      await tick();
      q.done(next.item);
    }
  });
  await Promise.all(producers);
  await shutDown(q);
  q.add('added after shutdown!');
  await Promise.all(consumers);
  expect(seen).not.toContain('added after shutdown!');
  expect(new Set(seen).size).toBe(2500);
  expect(q.len()).toBe(0);
}

async function addWhileProcessing(shutDown: (q: TypedInterface<number>) => Promise<void> | void) {
  const q = newTyped<number>();
  for (let i = 0; i < 50; i++) q.add(i);
  const counts = new Map<number, number>();
  const consumers = Array.from({ length: 10 }, async () => {
    for (;;) {
      const next = await q.get();
      if (next.shutdown) return;
      const count = (counts.get(next.item) ?? 0) + 1;
      counts.set(next.item, count);
      if (count < 2) q.add(next.item);
      await tick();
      q.done(next.item);
    }
  });
  while ([...counts.values()].filter((c) => c === 2).length < 50) await tick();
  await shutDown(q);
  await Promise.all(consumers);
  expect([...counts.values()]).toEqual(Array(50).fill(2));
  expect(q.len()).toBe(0);
}

describe('queue', () => {
  it('Basic: producers and consumers, nothing added after shutDown is handed out', () =>
    basic((q) => q.shutDown()));
  it('Basic with shutDownWithDrain', () => basic((q) => q.shutDownWithDrain()));
  it('AddWhileProcessing: an item re-added while processed is processed again', () =>
    addWhileProcessing((q) => q.shutDown()));
  it('AddWhileProcessing with shutDownWithDrain', () =>
    addWhileProcessing((q) => q.shutDownWithDrain()));

  it('Len: counts distinct waiting items', () => {
    const q = newTyped<string>();
    q.add('foo');
    expect(q.len()).toBe(1);
    q.add('bar');
    expect(q.len()).toBe(2);
    q.add('foo');
    expect(q.len()).toBe(2);
  });

  it('Reinsert: an item added while processing comes out again after done', async () => {
    const q = newTyped<string>();
    q.add('foo');
    const first = await q.get();
    expect(first).toEqual({ item: 'foo', shutdown: false });
    q.add('foo');
    expect(q.len()).toBe(0);
    q.done('foo');
    expect(await q.get()).toEqual({ item: 'foo', shutdown: false });
    q.done('foo');
    expect(q.len()).toBe(0);
  });

  it('Collapse: two adds of a waiting item give one get, and touch the store', async () => {
    const touched: string[] = [];
    const items: string[] = [];
    const store: Queue<string> = {
      touch: (item) => void touched.push(item),
      push: (item) => void items.push(item),
      len: () => items.length,
      pop: () => items.shift()!,
    };
    const q = newTyped<string>({ queue: store });
    q.add('bar');
    q.add('bar');
    expect(await q.get()).toEqual({ item: 'bar', shutdown: false });
    q.done('bar');
    expect(q.len()).toBe(0);
    expect(touched).toEqual(['bar']);
  });

  it('CollapseWhileProcessing: a second worker waits until the first is done, touch never called', async () => {
    const touched: string[] = [];
    const items: string[] = [];
    const q = newTyped<string>({
      queue: {
        touch: (item) => void touched.push(item),
        push: (item) => void items.push(item),
        len: () => items.length,
        pop: () => items.shift()!,
      },
    });
    q.add('foo');
    const first = await q.get();
    expect(first.item).toBe('foo');
    q.add('foo');
    q.add('foo');
    const second = q.get();
    expect(await settled(second)).toBe('pending');
    q.done('foo');
    expect(await second).toEqual({ item: 'foo', shutdown: false });
    q.done('foo');
    expect(q.len()).toBe(0);
    expect(touched).toEqual([]);
  });

  it('DrainageUsingShutDownWithDrain: waits for every item handed out', async () => {
    const q = await twoHandedOut();
    const drained = q.shutDownWithDrain();
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
    expect(await settled(drained)).toBe('pending');
    q.done('foo');
    expect(await settled(drained)).toBe('pending');
    q.done('bar');
    await drained;
  });

  it('NoDrainageUsingShutDown: shutDown does not wait for items in processing', async () => {
    const q = await twoHandedOut();
    q.shutDown();
    expect(q.shuttingDown()).toBe(true);
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
  });

  it('ForceShutdownUsingShutDown: shutDown releases a waiting drain', async () => {
    const q = await twoHandedOut();
    const drained = q.shutDownWithDrain();
    expect((await q.get()).shutdown).toBe(true);
    expect(await settled(drained)).toBe('pending');
    q.shutDown();
    await drained;
  });

  it('DrainWithDirtyItem: a dirty item still comes out during a drain', async () => {
    const q = newTyped<string>();
    q.add('foo');
    await q.get();
    q.add('foo');
    const drained = q.shutDownWithDrain();
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
    q.done('foo');
    expect(await q.get()).toEqual({ item: 'foo', shutdown: false });
    expect(await settled(drained)).toBe('pending');
    q.done('foo');
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
    await drained;
  });

  it('GarbageCollection: an item added, got and done is not retained', async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(gc, 'tests run with --expose-gc').toBeTypeOf('function');
    let collected = false;
    const finalizer = new FinalizationRegistry<void>(() => {
      collected = true;
    });
    const q = newTyped<object>();
    await (async () => {
      const item = {};
      finalizer.register(item, undefined);
      q.add(item);
      const next = await q.get();
      q.done(next.item!);
    })();
    for (let i = 0; i < 20 && !collected; i++) {
      gc!();
      await tick();
    }
    expect(collected).toBe(true);
  });

  it('a waiting get resolves as soon as an item arrives, oldest waiter first', async () => {
    const q = newTyped<string>();
    const a = q.get();
    const b = q.get();
    expect(await settled(a)).toBe('pending');
    q.add('x');
    expect(await a).toEqual({ item: 'x', shutdown: false });
    expect(await settled(b)).toBe('pending');
    q.shutDown();
    expect(await b).toEqual({ item: undefined, shutdown: true });
  });

  it('hands out queued items after shutDown, then reports shutdown', async () => {
    const q = newTyped<string>();
    q.add('a');
    q.add('b');
    q.shutDown();
    expect((await q.get()).item).toBe('a');
    expect((await q.get()).item).toBe('b');
    expect((await q.get()).shutdown).toBe(true);
  });

  it('done on an item never handed out is harmless and does not duplicate it', async () => {
    const q = newTyped<string>();
    q.add('a');
    q.done('a');
    q.done('never');
    expect(q.len()).toBe(1);
  });

  it('done twice counts once: a drain still waits for the other item handed out', async () => {
    const q = await twoHandedOut();
    q.done('foo');
    q.done('foo');
    const drained = q.shutDownWithDrain();
    expect(await settled(drained)).toBe('pending');
    q.done('bar');
    await drained;
  });

  it('queues undefined like any item: once while waiting, again after done', async () => {
    const q = newTyped<string | undefined>();
    q.add(undefined);
    q.add(undefined);
    expect(q.len()).toBe(1);
    expect(await q.get()).toEqual({ item: undefined, shutdown: false });
    q.add(undefined);
    expect(q.len()).toBe(0);
    q.done(undefined);
    expect(q.len()).toBe(1);
    expect(await q.get()).toEqual({ item: undefined, shutdown: false });
    q.done(undefined);
    expect(q.len()).toBe(0);
    await q.shutDownWithDrain();
  });

  it('an item added twice while processing is queued once, as first added then', async () => {
    const q = newTyped<{ id: string; v: number }>({ keyFunc: (o) => o.id });
    q.add({ id: 'a', v: 1 });
    const first = await q.get();
    q.add({ id: 'a', v: 2 });
    q.add({ id: 'a', v: 3 });
    q.done(first.item!);
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toEqual({ id: 'a', v: 2 });
    q.done({ id: 'a', v: 2 });
    expect(q.len()).toBe(0);
  });

  it('compares object items by keyFunc', async () => {
    const q = newTyped<{ id: string; v: number }>({ keyFunc: (o) => o.id });
    q.add({ id: 'a', v: 1 });
    q.add({ id: 'a', v: 2 });
    expect(q.len()).toBe(1);
    const next = await q.get();
    expect(next.item).toEqual({ id: 'a', v: 1 });
    q.add({ id: 'a', v: 3 });
    q.done({ id: 'a', v: 1 });
    expect((await q.get()).item).toEqual({ id: 'a', v: 3 });
  });

  it('rejects an unknown option and a keyFunc that is not a function, naming the field', () => {
    expect(() => newTyped({ nmae: 'x' } as never)).toThrow(/config\.nmae: unknown option/);
    try {
      newTyped({ keyFunc: 'id' as never });
      expect.unreachable();
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).field).toBe('config.keyFunc');
    }
  });
});
