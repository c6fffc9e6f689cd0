import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.js';

describe('Fifo', () => {
  it('pops in push order across emptying, refilling and compaction, as an array would', () => {
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: 1, max: 3000 }) }),
      fc.record({ pop: fc.integer({ min: 1, max: 3000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const fifo = new Fifo<number>();
        const model: number[] = [];
        let next = 0;
        for (const o of ops) {
          if ('push' in o) {
            for (let i = 0; i < o.push; i++, next++) {
              fifo.push(next);
              model.push(next);
            }
          } else {
            for (let i = 0; i < o.pop && model.length > 0; i++)
              expect(fifo.pop()).toBe(model.shift());
          }
          expect(fifo.len()).toBe(model.length);
        }
      }),
    );
  });

  it('refuses a pop when empty, also after being emptied', () => {
    const fifo = new Fifo<string>();
    expect(() => fifo.pop()).toThrow(RangeError);
    fifo.push('a');
    fifo.push('b');
    expect(fifo.pop()).toBe('a');
    expect(fifo.pop()).toBe('b');
    expect(() => fifo.pop()).toThrow(/pop from an empty queue/);
    fifo.push('c');
    expect(fifo.pop()).toBe('c');
  });
});
