import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpectationsStore } from './expectations-store.js';

// A reference model written from the upstream notes, with arrays instead of sets.
type Model = Map<string, { add: string[]; del: string[] }>;
const union = (a: string[], b: readonly string[]) => {
  const out = [...a];
  for (const u of b) if (!out.includes(u)) out.push(u);
  return out;
};
const minus = (a: string[], b: readonly string[]) => a.filter((u) => !b.includes(u));

type Op =
  | { op: 'expectCreations' | 'expectDeletions' | 'observeDeletions'; key: string; uids: string[] }
  | { op: 'sync'; key: string; live: string[]; terminating: string[] }
  | { op: 'delete'; key: string };

function applyModel(m: Model, o: Op): void {
  const rec = m.get(o.key);
  switch (o.op) {
    case 'expectCreations':
      if (rec) rec.add = union(rec.add, o.uids);
      else m.set(o.key, { add: union([], o.uids), del: [] });
      return;
    case 'expectDeletions':
      if (rec) {
        rec.add = minus(rec.add, o.uids);
        rec.del = union(rec.del, o.uids);
      } else m.set(o.key, { add: [], del: union([], o.uids) });
      return;
    case 'observeDeletions':
      if (rec) {
        rec.add = minus(rec.add, o.uids);
        rec.del = minus(rec.del, o.uids);
      }
      return;
    case 'sync':
      if (rec) {
        rec.add = minus(rec.add, o.live);
        rec.del = union(
          rec.del.filter((u) => o.live.includes(u)),
          o.terminating,
        );
      }
      return;
    case 'delete':
      m.delete(o.key);
  }
}

function applyStore(s: ExpectationsStore, o: Op): void {
  switch (o.op) {
    case 'expectCreations':
      s.expectCreations(o.key, o.uids);
      return;
    case 'expectDeletions':
      s.expectDeletions(o.key, o.uids);
      return;
    case 'observeDeletions':
      s.observeDeletions(o.key, o.uids);
      return;
    case 'sync':
      s.syncExpectations(o.key, o.live, o.terminating);
      return;
    case 'delete':
      s.deleteExpectations(o.key);
      return;
  }
}

const keys = ['ns/a', 'ns/b', 'ns/c'];
const uidPool = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'];
const key = fc.constantFrom(...keys);
// Small pool: overlaps between sets and lists are frequent; arrays may repeat a UID.
const uids = fc.array(fc.constantFrom(...uidPool), { maxLength: 6 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constantFrom('expectCreations', 'expectDeletions', 'observeDeletions') as fc.Arbitrary<
      'expectCreations' | 'expectDeletions' | 'observeDeletions'
    >,
    key,
    uids,
  }),
  fc.record({ op: fc.constant('sync' as const), key, live: uids, terminating: uids }),
  fc.record({ op: fc.constant('delete' as const), key }),
);

const sorted = (a: Iterable<string>) => [...a].sort();

function expectSame(s: ExpectationsStore, m: Model): void {
  for (const k of keys) {
    const rec = m.get(k);
    const got = s.getExpectations(k);
    expect(got === undefined, k).toBe(rec === undefined);
    expect(sorted(s.getCreateExpectations(k))).toEqual(sorted(rec?.add ?? []));
    expect(sorted(s.getDeleteExpectations(k))).toEqual(sorted(rec?.del ?? []));
    if (got) {
      expect(sorted(got.uidsToAdd)).toEqual(sorted(rec!.add));
      expect(sorted(got.uidsToDelete)).toEqual(sorted(rec!.del));
    }
    for (const u of uidPool) {
      expect(s.hasDeleteExpectation(k, u)).toBe(rec?.del.includes(u) ?? false);
    }
  }
}

/** A store after `ops` and one sync of `k`. */
function syncedAfter(ops: Op[], k: string, live: string[], terminating: string[]) {
  const store = new ExpectationsStore();
  for (const o of ops) applyStore(store, o);
  store.syncExpectations(k, live, terminating);
  return store;
}

describe('ExpectationsStore properties', () => {
  it('for any sequence of expect/observe/sync/delete calls, the store answers as the reference model', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const store = new ExpectationsStore();
        const model: Model = new Map();
        for (const o of ops) {
          applyStore(store, o);
          applyModel(model, o);
          expectSame(store, model);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('after a sync, no live UID is expected to be created and the delete set is within live + terminating', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), key, uids, uids, (ops, k, live, terminating) => {
        const store = syncedAfter(ops, k, live, terminating);
        const exp = store.getExpectations(k);
        if (exp === undefined) return;
        for (const u of live) expect(exp.uidsToAdd.has(u)).toBe(false);
        for (const u of terminating) expect(exp.uidsToDelete.has(u)).toBe(true);
        for (const u of exp.uidsToDelete) {
          expect(live.includes(u) || terminating.includes(u)).toBe(true);
        }
      }),
    );
  });

  it('sync is idempotent: a second sync with the same cache changes nothing', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), key, uids, uids, (ops, k, live, terminating) => {
        const store = syncedAfter(ops, k, live, terminating);
        const once = store.getExpectations(k);
        store.syncExpectations(k, live, terminating);
        expect(store.getExpectations(k)).toEqual(once);
      }),
    );
  });
});
