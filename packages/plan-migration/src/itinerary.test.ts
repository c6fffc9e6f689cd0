import { describe, expect, it } from 'vitest';
import { Itinerary, StepNotFoundError } from './itinerary.js';

type F = 'a' | 'b';
const pipeline = [
  { name: 'one' },
  { name: 'two', all: ['a'] as F[] },
  { name: 'three', any: ['a', 'b'] as F[] },
  { name: 'four', all: ['a', 'b'] as F[] },
  { name: 'five' },
];

describe('Itinerary', () => {
  it('keeps every phase without a predicate', () => {
    expect(new Itinerary('x', pipeline).list().map((s) => s.name)).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
    ]);
  });

  it('all needs every flag, any needs one', () => {
    const onlyB = new Itinerary<F>('x', pipeline, (f) => f === 'b');
    expect(onlyB.list().map((s) => s.name)).toEqual(['one', 'three', 'five']);
    const none = new Itinerary<F>('x', pipeline, () => false);
    expect(none.list().map((s) => s.name)).toEqual(['one', 'five']);
  });

  it('next skips filtered phases and is done after the last', () => {
    const itr = new Itinerary<F>('x', pipeline, (f) => f === 'b');
    expect(itr.first().name).toBe('one');
    expect(itr.next('one').next?.name).toBe('three');
    expect(itr.next('three').next?.name).toBe('five');
    expect(itr.next('five').done).toBe(true);
    expect(itr.next('two').done).toBe(true);
    expect(() => itr.next('zzz')).toThrow(StepNotFoundError);
    expect(StepNotFoundError.isInstance(new StepNotFoundError('q'))).toBe(true);
  });

  it('progress counts kept phases before the given one', () => {
    const itr = new Itinerary<F>('x', pipeline, (f) => f === 'b');
    expect(itr.progress('five')).toEqual({ completed: 2, total: 3 });
  });
});
