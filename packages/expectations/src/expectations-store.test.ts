import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { ExpectationsStore } from './expectations-store.js';
import { RecordingLogger } from './testing.js';

const key = 'test-ns/test-resource';
const sorted = (uids: Iterable<string>) => [...uids].sort();

function storeWith(adds: string[], dels: string[]): ExpectationsStore {
  const store = new ExpectationsStore();
  store.expectCreations(key, adds);
  store.expectDeletions(key, dels);
  return store;
}

describe('ExpectationsStore: upstream scenarios', () => {
  it('upstream "ExpectCreations": no record -> {1,2}', () => {
    const store = new ExpectationsStore();
    store.expectCreations(key, ['1', '2']);
    expect(sorted(store.getCreateExpectations(key))).toEqual(['1', '2']);
    expect(store.getDeleteExpectations(key)).toEqual([]);
  });

  it('upstream "ExpectCreations": existing {1,2} + concurrent 1, 3, 4 -> {1,2,3,4}', async () => {
    const store = storeWith(['1', '2'], []);
    await Promise.all(
      ['1', '3', '4'].map(async (uid) => {
        await Promise.resolve();
        store.expectCreations(key, [uid]);
      }),
    );
    expect(sorted(store.getCreateExpectations(key))).toEqual(['1', '2', '3', '4']);
  });

  it('upstream "ExpectDeletions": no record -> {1,2}', () => {
    const store = new ExpectationsStore();
    store.expectDeletions(key, ['1', '2']);
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['1', '2']);
    expect(store.getCreateExpectations(key)).toEqual([]);
  });

  it('upstream "ExpectDeletions": existing {1,2} + concurrent 1, 3, 4 -> {1,2,3,4}', async () => {
    const store = storeWith([], ['1', '2']);
    await Promise.all(
      ['1', '3', '4'].map(async (uid) => {
        await Promise.resolve();
        store.expectDeletions(key, [uid]);
      }),
    );
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['1', '2', '3', '4']);
  });

  it('upstream "ObserveDeletions": {1,3,5} observe 8 -> {1,3,5}', () => {
    const store = storeWith([], ['1', '3', '5']);
    store.observeDeletions(key, ['8']);
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['1', '3', '5']);
  });

  it('upstream "ObserveDeletions": {1,2,3,5} observe 2, 5 -> {1,3}', () => {
    const store = storeWith([], ['1', '2', '3', '5']);
    store.observeDeletions(key, ['2', '5']);
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['1', '3']);
  });

  it('upstream "DeleteExpectations": absent key -> no error, not found', () => {
    const store = new ExpectationsStore();
    expect(() => store.deleteExpectations(key)).not.toThrow();
    expect(store.getExpectations(key)).toBeUndefined();
  });

  it('upstream "DeleteExpectations": existing -> removed, not found', () => {
    const store = storeWith(['1'], ['2']);
    store.deleteExpectations(key);
    expect(store.getExpectations(key)).toBeUndefined();
    expect(store.getCreateExpectations(key)).toEqual([]);
    expect(store.hasDeleteExpectation(key, '2')).toBe(false);
  });

  it('upstream "SyncExpectations": adds {1,2}, dels {3,6}, live {1,3,4,7} -> adds {2}, dels {3}', () => {
    const store = storeWith(['1', '2'], ['3', '6']);
    store.syncExpectations(key, ['1', '3', '4', '7'], []);
    expect(sorted(store.getCreateExpectations(key))).toEqual(['2']);
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['3']);
  });

  it('upstream "SyncExpectations": adds {1}, live {2,3}, terminating {4,5} -> adds {1}, dels {4,5}', () => {
    const store = storeWith(['1'], []);
    store.syncExpectations(key, ['2', '3'], ['4', '5']);
    expect(sorted(store.getCreateExpectations(key))).toEqual(['1']);
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['4', '5']);
  });

  it('upstream "SyncExpectations": an empty record under another key + live {1,2} -> both empty', () => {
    const store = new ExpectationsStore();
    store.expectCreations('other-ns/other', []);
    store.syncExpectations(key, ['1', '2'], []);
    expect(store.getExpectations(key)).toBeUndefined();
    const other = store.getExpectations('other-ns/other')!;
    expect(other.uidsToAdd.size + other.uidsToDelete.size).toBe(0);
  });
});

describe('ExpectationsStore: edges', () => {
  it('expecting a deletion drops a pending creation of the same UID', () => {
    const store = storeWith(['1', '2'], []);
    store.expectDeletions(key, ['1']);
    expect(sorted(store.getCreateExpectations(key))).toEqual(['2']);
    expect(store.hasDeleteExpectation(key, '1')).toBe(true);
  });

  it('expecting a creation keeps a pending deletion: a UID may be in both sets', () => {
    const store = storeWith([], ['1']);
    store.expectCreations(key, ['1']);
    const exp = store.getExpectations(key)!;
    expect(exp.uidsToAdd.has('1')).toBe(true);
    expect(exp.uidsToDelete.has('1')).toBe(true);
  });

  it('observeDeletions removes the UIDs from both sets; no record -> no-op, no record created', () => {
    const store = storeWith(['1'], ['2']);
    store.expectCreations(key, ['2']);
    store.observeDeletions(key, ['1', '2']);
    expect(store.getCreateExpectations(key)).toEqual([]);
    expect(store.getDeleteExpectations(key)).toEqual([]);
    store.observeDeletions('ns/none', ['1']);
    expect(store.getExpectations('ns/none')).toBeUndefined();
  });

  it('sync with overlapping live and terminating UIDs: live clears the creation, terminating keeps the deletion', () => {
    const store = storeWith(['1', '2'], ['3']);
    store.syncExpectations(key, ['1', '3', '4'], ['3', '4', '2']);
    // '2' is only terminating: it is not removed from the creations (only live UIDs are).
    expect(sorted(store.getCreateExpectations(key))).toEqual(['2']);
    expect(sorted(store.getDeleteExpectations(key))).toEqual(['2', '3', '4']);
  });

  it('sync with an empty live list clears all delete expectations', () => {
    const store = storeWith(['1'], ['2', '3', '4', '5', '6', '7']);
    store.syncExpectations(key, []);
    expect(store.getDeleteExpectations(key)).toEqual([]);
    expect(store.getCreateExpectations(key)).toEqual(['1']);
  });

  it('sync keeps only live deletions, for small and large delete sets alike', () => {
    for (const n of [1, 4, 5, 50]) {
      const dels = Array.from({ length: n }, (_, i) => `d${i}`);
      const live = dels.filter((_, i) => i % 2 === 0);
      const store = storeWith([], dels);
      store.syncExpectations(key, [...live, 'x', 'y', 'z']);
      expect(sorted(store.getDeleteExpectations(key))).toEqual(sorted(live));
    }
  });

  it('sync on a key with no record does nothing and creates no record', () => {
    const store = new ExpectationsStore();
    store.syncExpectations(key, ['1'], ['2']);
    expect(store.getExpectations(key)).toBeUndefined();
  });

  it('getters return copies: mutating them does not change the store', () => {
    const store = storeWith(['1'], ['2']);
    store.getCreateExpectations(key).push('x');
    store.getDeleteExpectations(key).length = 0;
    const exp = store.getExpectations(key)!;
    (exp.uidsToAdd as Set<string>).add('y');
    (exp.uidsToDelete as Set<string>).clear();
    expect(store.getCreateExpectations(key)).toEqual(['1']);
    expect(store.getDeleteExpectations(key)).toEqual(['2']);
    expect(store.getExpectations(key)).toEqual({
      key,
      uidsToAdd: new Set(['1']),
      uidsToDelete: new Set(['2']),
    });
  });

  it('hasDeleteExpectation is false without a record or for another UID', () => {
    const store = storeWith([], ['1']);
    expect(store.hasDeleteExpectation(key, '1')).toBe(true);
    expect(store.hasDeleteExpectation(key, '2')).toBe(false);
    expect(store.hasDeleteExpectation('ns/none', '1')).toBe(false);
  });

  it('deleted keys leave no entry behind', () => {
    const store = new ExpectationsStore();
    for (let i = 0; i < 100; i++) store.expectCreations(`ns/${i}`, [`u${i}`]);
    for (let i = 0; i < 100; i++) store.deleteExpectations(`ns/${i}`);
    for (let i = 0; i < 100; i++) expect(store.getExpectations(`ns/${i}`)).toBeUndefined();
  });

  it('logs debug lines naming the key and the UIDs, to the call logger when given', () => {
    const own = new RecordingLogger();
    const call = new RecordingLogger();
    const store = new ExpectationsStore({ logger: own });
    store.expectCreations(key, ['1']);
    store.expectDeletions(key, ['2'], call);
    store.observeDeletions(key, ['2']);
    store.deleteExpectations(key, call);
    store.deleteExpectations(key, call); // absent: no line
    expect(own.entries).toEqual([
      { level: 'debug', obj: { key, uidsToAdd: ['1'] }, msg: 'created expectations' },
      { level: 'debug', obj: { key, uids: ['2'] }, msg: 'lowered expectations' },
    ]);
    expect(call.entries).toEqual([
      { level: 'debug', obj: { key, uidsToDelete: ['2'] }, msg: 'raised expectations' },
      { level: 'debug', obj: { key }, msg: 'deleted expectations' },
    ]);
  });

  it('rejects bad input with an error naming it, and changes nothing', () => {
    const store = storeWith(['1'], ['2']);
    const cases: Array<[() => void, string]> = [
      [() => store.expectCreations('', ['1']), 'controlleeKey'],
      [() => store.expectCreations(key, ['3', 4 as unknown as string]), 'uids[1]'],
      [() => store.expectDeletions(key, [''] as string[]), 'uids[0]'],
      [() => store.observeDeletions(key, undefined as unknown as string[]), 'uids'],
      [
        () => store.syncExpectations(key, [null as unknown as string]),
        'existingNonTerminatingUIDs[0]',
      ],
      [
        () => store.syncExpectations(key, ['1'], [1 as unknown as string]),
        'existingTerminatingUIDs[0]',
      ],
      [() => store.hasDeleteExpectation(key, 5 as unknown as string), 'uid'],
      [() => store.getExpectations(''), 'controlleeKey'],
      [() => store.getCreateExpectations(''), 'controlleeKey'],
      [() => store.getDeleteExpectations(''), 'controlleeKey'],
      [() => store.deleteExpectations(''), 'controlleeKey'],
    ];
    for (const [call, field] of cases) {
      expect(call, field).toThrow(expect.objectContaining({ reason: 'InvalidArgument', field }));
    }
    expect(store.getCreateExpectations(key)).toEqual(['1']);
    expect(store.getDeleteExpectations(key)).toEqual(['2']);
    expect(() => new ExpectationsStore({ logger: 'x' as never })).toThrow(InvalidArgumentError);
  });

  it('concurrent reconcilers across awaits lose no update', async () => {
    const store = new ExpectationsStore();
    const keys = ['ns/a', 'ns/b'];
    const worker = async (k: string, w: number) => {
      for (let i = 0; i < 20; i++) {
        store.expectCreations(k, [`${w}-${i}`]);
        await new Promise((r) => setImmediate(r));
        store.expectDeletions(k, [`${w}-${i}-old`]);
        await Promise.resolve();
      }
    };
    await Promise.all(keys.flatMap((k) => [0, 1, 2].map((w) => worker(k, w))));
    for (const k of keys) {
      expect(store.getCreateExpectations(k)).toHaveLength(60);
      expect(store.getDeleteExpectations(k)).toHaveLength(60);
    }
  });
});
