import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControllerExpectations } from './controller-expectations.js';
import { FakeClock } from './testing.js';
import { UIDTrackingControllerExpectations } from './uid-tracking-controller-expectations.js';

type Op =
  | { op: 'expectDeletions'; key: string; objs: string[] }
  | { op: 'addExpectedDeletion' | 'deletionObserved'; key: string; obj: string }
  | { op: 'delete'; key: string };

const keys = ['ns/rc1', 'ns/rc2'];
const objPool = ['ns/p1', 'ns/p2', 'ns/p3', 'ns/p4'];
const key = fc.constantFrom(...keys);
const obj = fc.constantFrom(...objPool);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('expectDeletions' as const),
    key,
    objs: fc.array(obj, { maxLength: 5 }),
  }),
  fc.record({
    op: fc.constantFrom(
      'addExpectedDeletion',
      'deletionObserved',
    ) as fc.Arbitrary<'deletionObserved'>,
    key,
    obj,
  }),
  fc.record({ op: fc.constant('delete' as const), key }),
);

describe('UIDTrackingControllerExpectations properties', () => {
  it('the expected deletions always equal the number of tracked keys not yet observed', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const inner = new ControllerExpectations({ clock: new FakeClock(0) });
        const exp = new UIDTrackingControllerExpectations({ expectations: inner });
        const model = new Map<string, Set<string>>();
        for (const o of ops) {
          switch (o.op) {
            case 'expectDeletions':
              exp.expectDeletions(o.key, o.objs);
              model.set(o.key, new Set(o.objs));
              break;
            case 'addExpectedDeletion':
              exp.addExpectedDeletion(o.key, o.obj);
              model.set(o.key, new Set([...(model.get(o.key) ?? []), o.obj]));
              break;
            case 'deletionObserved':
              exp.deletionObserved(o.key, o.obj);
              model.get(o.key)?.delete(o.obj);
              break;
            case 'delete':
              exp.deleteExpectations(o.key);
              model.delete(o.key);
          }
          for (const k of keys) {
            const want = model.get(k);
            expect(exp.getUIDs(k)).toEqual(want);
            expect(exp.getExpectations(k)?.getExpectations()).toEqual(
              want ? [0, want.size] : undefined,
            );
            expect(exp.satisfiedExpectations(k)).toBe(want === undefined || want.size === 0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
