import { describe, expect, it } from 'vitest';
import { FakeClock, FakeInformer, RecordingLogger } from './testing.js';

describe('FakeClock', () => {
  it('moves only through step and set', () => {
    const clock = new FakeClock(5);
    expect(clock.now()).toBe(5);
    clock.step(10);
    expect(clock.now()).toBe(15);
    clock.set(2);
    expect(clock.now()).toBe(2);
    expect(new FakeClock().now()).toBe(0);
    expect(() => clock.step(-1)).toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
  });
});

describe('FakeInformer', () => {
  it('delivers each event to the handlers registered for it, until unsubscribed', () => {
    const informer = new FakeInformer<string>();
    const seen: string[] = [];
    const offAdd = informer.onAdd((o) => seen.push(`add ${o}`));
    informer.onUpdate((a, b) => seen.push(`update ${a}->${b}`));
    informer.onDelete((o) => seen.push(`delete ${JSON.stringify(o)}`));
    informer.emitAdd('x');
    informer.emitUpdate('x', 'y');
    informer.emitDelete({ key: 'k', obj: 'y' });
    offAdd();
    informer.emitAdd('z');
    expect(seen).toEqual(['add x', 'update x->y', 'delete {"key":"k","obj":"y"}']);
    expect(informer.handlerCount).toBe(2);
  });
});

describe('RecordingLogger', () => {
  it('records every level in order', () => {
    const logger = new RecordingLogger();
    logger.debug({ a: 1 }, 'd');
    logger.info({ b: 2 });
    logger.warn({}, 'w');
    logger.error({}, 'e');
    expect(logger.entries.map((e) => [e.level, e.msg])).toEqual([
      ['debug', 'd'],
      ['info', undefined],
      ['warn', 'w'],
      ['error', 'e'],
    ]);
  });
});
