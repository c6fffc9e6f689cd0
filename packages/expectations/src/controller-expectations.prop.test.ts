import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControllerExpectations } from './controller-expectations.js';
import { FakeClock } from './testing.js';

// A reference model written from the upstream notes.
type Model = Map<string, { add: number; del: number; ts: number }>;
const timeout = 100;

type Op =
  | { op: 'set' | 'raise' | 'lower'; key: string; add: number; del: number }
  | { op: 'expectCreations' | 'expectDeletions'; key: string; n: number }
  | { op: 'creationObserved' | 'deletionObserved' | 'delete'; key: string }
  | { op: 'step'; ms: number };

function applyModel(m: Model, o: Op, now: number): void {
  if (o.op === 'step') return;
  const rec = m.get(o.key);
  switch (o.op) {
    case 'set':
      m.set(o.key, { add: o.add, del: o.del, ts: now });
      return;
    case 'expectCreations':
      m.set(o.key, { add: o.n, del: 0, ts: now });
      return;
    case 'expectDeletions':
      m.set(o.key, { add: 0, del: o.n, ts: now });
      return;
    case 'raise':
      if (rec) Object.assign(rec, { add: rec.add + o.add, del: rec.del + o.del });
      return;
    case 'lower':
      if (rec) Object.assign(rec, { add: rec.add - o.add, del: rec.del - o.del });
      return;
    case 'creationObserved':
      if (rec) rec.add -= 1;
      return;
    case 'deletionObserved':
      if (rec) rec.del -= 1;
      return;
    case 'delete':
      m.delete(o.key);
  }
}

function applyReal(e: ControllerExpectations, clock: FakeClock, o: Op): void {
  switch (o.op) {
    case 'step':
      clock.step(o.ms);
      return;
    case 'set':
      e.setExpectations(o.key, o.add, o.del);
      return;
    case 'raise':
      e.raiseExpectations(o.key, o.add, o.del);
      return;
    case 'lower':
      e.lowerExpectations(o.key, o.add, o.del);
      return;
    case 'expectCreations':
      e.expectCreations(o.key, o.n);
      return;
    case 'expectDeletions':
      e.expectDeletions(o.key, o.n);
      return;
    case 'creationObserved':
      e.creationObserved(o.key);
      return;
    case 'deletionObserved':
      e.deletionObserved(o.key);
      return;
    case 'delete':
      e.deleteExpectations(o.key);
      return;
  }
}

const keys = ['ns/a', 'ns/b'];
const key = fc.constantFrom(...keys);
const n = fc.integer({ min: 0, max: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constantFrom('set', 'raise', 'lower') as fc.Arbitrary<'set'>,
    key,
    add: n,
    del: n,
  }),
  fc.record({
    op: fc.constantFrom('expectCreations', 'expectDeletions') as fc.Arbitrary<'expectCreations'>,
    key,
    n,
  }),
  fc.record({
    op: fc.constantFrom('creationObserved', 'deletionObserved', 'delete') as fc.Arbitrary<'delete'>,
    key,
  }),
  fc.record({
    op: fc.constant('step' as const),
    // Steps of exactly the timeout (and one either side) probe the strict expiry.
    ms: fc.oneof(
      fc.constantFrom(1, timeout - 1, timeout, timeout + 1),
      fc.integer({ min: 0, max: 60 }),
    ),
  }),
);

describe('ControllerExpectations properties', () => {
  it('for any sequence of calls and clock steps, counters, satisfaction and pending creations match the model', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 50 }), (ops) => {
        const clock = new FakeClock(0);
        const exp = new ControllerExpectations({ clock, timeoutMs: timeout });
        const model: Model = new Map();
        for (const o of ops) {
          applyReal(exp, clock, o);
          applyModel(model, o, clock.now());
          let pending = 0;
          for (const k of keys) {
            const rec = model.get(k);
            pending += rec?.add ?? 0;
            expect(exp.getExpectations(k)?.getExpectations()).toEqual(
              rec ? [rec.add, rec.del] : undefined,
            );
            expect(exp.getExpectations(k)?.timestamp).toBe(rec?.ts);
            const satisfied =
              rec === undefined || (rec.add <= 0 && rec.del <= 0) || clock.now() - rec.ts > timeout;
            expect(exp.satisfiedExpectations(k)).toBe(satisfied);
          }
          expect(exp.allPendingCreations()).toBe(pending);
        }
      }),
      { numRuns: 300 },
    );
  });
});
