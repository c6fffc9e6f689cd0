import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { newTypedDelayingQueue, type TypedDelayingInterface } from './delaying-queue.js';
import { RecordingMetricsProvider } from './testing/recording-metrics-provider.js';

async function drainAll<T>(q: TypedDelayingInterface<T>): Promise<T[]> {
  const items: T[] = [];
  while (q.len() > 0) {
    const next = await q.get();
    items.push(next.item as T);
    q.done(next.item as T);
  }
  return items;
}

describe('delaying queue', () => {
  it('Simple: an item comes out after its delay, not before', async () => {
    const clock = new FakeClock();
    const q = newTypedDelayingQueue<string>({ clock });
    q.addAfter('foo', 50);
    expect(q.len()).toBe(0);
    clock.step(49);
    expect(q.len()).toBe(0);
    clock.step(11);
    expect(q.len()).toBe(1);
    expect(await drainAll(q)).toEqual(['foo']);
    clock.step(10_000);
    expect(q.len()).toBe(0);
  });

  it('Deduping: an item waiting twice keeps the earliest time', async () => {
    const clock = new FakeClock();
    const q = newTypedDelayingQueue<string>({ clock });
    q.addAfter('foo', 50);
    q.addAfter('foo', 70);
    expect(q.len()).toBe(0);
    clock.step(60);
    expect(await drainAll(q)).toEqual(['foo']);
    clock.step(20);
    expect(q.len()).toBe(0);

    q.addAfter('foo', 50);
    q.addAfter('foo', 30);
    clock.step(40);
    expect(await drainAll(q)).toEqual(['foo']);
    clock.step(20);
    expect(q.len()).toBe(0);
  });

  it('AddTwoFireEarly: the earlier of two items fires first', async () => {
    const clock = new FakeClock();
    const q = newTypedDelayingQueue<string>({ clock });
    q.addAfter('foo', 1000);
    q.addAfter('bar', 50);
    clock.step(60);
    expect(await drainAll(q)).toEqual(['bar']);
    q.addAfter('baz', 2000);
    clock.step(1000);
    expect(await drainAll(q)).toEqual(['foo']);
    clock.step(2000);
    expect(await drainAll(q)).toEqual(['baz']);
  });

  it('CopyShifting: items falling due together come out earliest first', async () => {
    const clock = new FakeClock();
    const q = newTypedDelayingQueue<string>({ clock });
    q.addAfter('foo', 1000);
    q.addAfter('bar', 500);
    q.addAfter('baz', 250);
    clock.step(2000);
    expect(q.len()).toBe(3);
    expect(await drainAll(q)).toEqual(['baz', 'bar', 'foo']);
  });

  it('adds at once for a delay of 0 or less', () => {
    const q = newTypedDelayingQueue<string>({ clock: new FakeClock() });
    q.addAfter('zero', 0);
    q.addAfter('negative', -5);
    expect(q.len()).toBe(2);
  });

  it('uses one timer for the whole queue and leaves none after shutdown', () => {
    const clock = new FakeClock();
    const q = newTypedDelayingQueue<number>({ clock });
    for (let i = 1; i <= 1000; i++) q.addAfter(i, i);
    expect(clock.pendingTimers).toBe(1);
    q.shutDown();
    expect(clock.pendingTimers).toBe(0);
    q.addAfter(5000, 1);
    expect(clock.pendingTimers).toBe(0);
    clock.step(10_000);
    expect(q.len()).toBe(0);
  });

  it('drops waiting items on shutDownWithDrain', async () => {
    const clock = new FakeClock();
    const q = newTypedDelayingQueue<string>({ clock });
    q.addAfter('later', 100);
    await q.shutDownWithDrain();
    expect(clock.pendingTimers).toBe(0);
    clock.step(200);
    expect(q.len()).toBe(0);
  });

  it('counts every addAfter as a retry of a named queue, zero delays included', () => {
    const metricsProvider = new RecordingMetricsProvider();
    const q = newTypedDelayingQueue<string>({
      name: 'retries',
      metricsProvider,
      clock: new FakeClock(),
    });
    q.addAfter('a', 0);
    q.addAfter('b', 10);
    q.addAfter('b', 20);
    expect(metricsProvider.get('retries').retries).toBe(3);
    q.shutDown();
  });

  it('rejects a NaN or infinite delay, naming it', () => {
    const q = newTypedDelayingQueue<string>({ clock: new FakeClock() });
    expect(() => q.addAfter('x', Number.NaN)).toThrow(/invalid delayMs/);
    expect(() => q.addAfter('x', Number.POSITIVE_INFINITY)).toThrow(/invalid delayMs/);
  });

  it('never fires early with the real clock', async () => {
    const q = newTypedDelayingQueue<string>();
    const start = performance.now();
    q.addAfter('x', 20);
    const next = await q.get();
    expect(next.item).toBe('x');
    expect(performance.now() - start).toBeGreaterThanOrEqual(20);
    q.shutDown();
  });
});
