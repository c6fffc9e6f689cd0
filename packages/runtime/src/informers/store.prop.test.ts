import type { KubernetesObject } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Indexer, NAMESPACE_INDEX } from './store.js';

type Op =
  | { kind: 'add'; ns: string; name: string; app: string }
  | { kind: 'delete'; ns: string; name: string }
  | { kind: 'replace'; objects: Array<{ ns: string; name: string; app: string }> };

const ns = fc.constantFrom('a', 'b', 'c');
const name = fc.constantFrom('x', 'y', 'z', 'w');
const app = fc.constantFrom('web', 'db', '');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), ns, name, app }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), ns, name }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      objects: fc.array(fc.record({ ns, name, app }), { maxLength: 8 }),
    }),
  },
);

function obj(o: { ns: string; name: string; app: string }): KubernetesObject {
  return { metadata: { namespace: o.ns, name: o.name, labels: o.app ? { app: o.app } : {} } };
}

describe('Indexer (property)', () => {
  it('agrees with a Map model on contents and on every index after any sequence of operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const store = new Indexer({
          indexers: { app: (o) => (o.metadata?.labels?.app ? [o.metadata.labels.app] : []) },
        });
        const model = new Map<string, KubernetesObject>();
        for (const o of ops) {
          if (o.kind === 'add') {
            const value = obj(o);
            store.add(value);
            model.set(`${o.ns}/${o.name}`, value);
          } else if (o.kind === 'delete') {
            store.delete(obj({ ...o, app: '' }));
            model.delete(`${o.ns}/${o.name}`);
          } else {
            const values = o.objects.map(obj);
            store.replace(values);
            model.clear();
            for (const v of values) model.set(`${v.metadata?.namespace}/${v.metadata?.name}`, v);
          }
        }
        expect(store.listKeys().sort()).toEqual([...model.keys()].sort());
        for (const [key, value] of model) expect(store.getByKey(key)).toBe(value);
        for (const namespace of ['a', 'b', 'c']) {
          const expected = [...model.keys()].filter((k) => k.startsWith(`${namespace}/`)).sort();
          expect(store.indexKeys(NAMESPACE_INDEX, namespace).sort()).toEqual(expected);
        }
        for (const label of ['web', 'db']) {
          const expected = [...model]
            .filter(([, v]) => v.metadata?.labels?.app === label)
            .map(([k]) => k);
          expect(store.indexKeys('app', label).sort()).toEqual(expected.sort());
        }
        const values = new Set(store.listIndexFuncValues('app'));
        for (const v of values) expect(store.indexKeys('app', v).length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
