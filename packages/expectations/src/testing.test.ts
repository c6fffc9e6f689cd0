import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAKE_CLOCK_START_MS,
  FakeClock,
  FakeInformer,
  RecordingLogger,
} from './testing.js';

describe('FakeClock', () => {
  it("is the workqueue's: moves only through step and setTime, never back", () => {
    const clock = new FakeClock(5);
    expect(clock.now()).toBe(5);
    clock.step(10);
    expect(clock.now()).toBe(15);
    clock.setTime(20);
    expect(clock.now()).toBe(20);
    expect(new FakeClock().now()).toBe(DEFAULT_FAKE_CLOCK_START_MS);
    expect(() => clock.step(-1)).toThrow(expect.objectContaining({ reason: 'InvalidArgument' }));
    expect(() => clock.setTime(2)).toThrow(expect.objectContaining({ reason: 'InvalidArgument' }));
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
