import { describe, expect, it } from 'vitest';
import { controlleeKeyFunc, isDeletedFinalStateUnknown } from './controllee-key-func.js';

describe('controlleeKeyFunc', () => {
  it('gives "namespace/name" for a namespaced object and "name" for a cluster-scoped one', () => {
    expect(controlleeKeyFunc({ metadata: { namespace: 'ns', name: 'a' } })).toBe('ns/a');
    expect(controlleeKeyFunc({ metadata: { name: 'node-1' } })).toBe('node-1');
    expect(controlleeKeyFunc({ metadata: { namespace: '', name: 'node-1' } })).toBe('node-1');
  });

  it("gives a tombstone's own key, even when its object is stale or missing", () => {
    const stale = { metadata: { namespace: 'old', name: 'x' } };
    expect(controlleeKeyFunc({ key: 'ns/a', obj: stale })).toBe('ns/a');
    expect(controlleeKeyFunc({ key: 'ns/b', obj: undefined })).toBe('ns/b');
  });

  it('passes a string key through, as client-go does for explicit keys', () => {
    expect(controlleeKeyFunc('ns/a')).toBe('ns/a');
  });

  it('throws a KeyFuncError for an object without metadata.name', () => {
    for (const v of [{}, { metadata: {} }, { metadata: { name: '' } }, null, 42]) {
      expect(() => controlleeKeyFunc(v)).toThrow(
        expect.objectContaining({ reason: 'KeyFunc', keyFunc: 'controlleeKeyFunc' }),
      );
    }
  });
});

describe('isDeletedFinalStateUnknown', () => {
  it('recognises { key, obj } and rejects objects with metadata', () => {
    expect(isDeletedFinalStateUnknown({ key: 'ns/a', obj: {} })).toBe(true);
    expect(isDeletedFinalStateUnknown({ key: 'ns/a', obj: {}, metadata: {} })).toBe(false);
    expect(isDeletedFinalStateUnknown({ key: 'ns/a' })).toBe(false);
    expect(isDeletedFinalStateUnknown({ key: 1, obj: {} })).toBe(false);
    expect(isDeletedFinalStateUnknown(null)).toBe(false);
  });
});
