import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  and,
  annotationChangedPredicate,
  generationChangedPredicate,
  labelChangedPredicate,
  labelSelectorPredicate,
  newPredicateFuncs,
  not,
  or,
  type Predicate,
  predicateFuncs,
  resourceVersionChangedPredicate,
} from './predicate.js';

const obj = (meta: V1ConfigMap['metadata'] = {}): V1ConfigMap => ({
  metadata: { name: 'a', ...meta },
});
const update = (p: Predicate<V1ConfigMap>, o: V1ConfigMap, n: V1ConfigMap) =>
  p.update({ objectOld: o, objectNew: n });
const others = (p: Predicate<V1ConfigMap>) => [
  p.create({ object: obj() }),
  p.delete({ object: obj(), deleteStateUnknown: false }),
  p.generic({ object: obj() }),
];

describe('predicates', () => {
  it('generationChangedPredicate passes updates that change the generation, and every other event', () => {
    const p = generationChangedPredicate<V1ConfigMap>();
    expect(update(p, obj({ generation: 1 }), obj({ generation: 2 }))).toBe(true);
    expect(update(p, obj({ generation: 1, labels: { a: 'b' } }), obj({ generation: 1 }))).toBe(
      false,
    );
    expect(update(p, undefined as never, obj())).toBe(false);
    expect(others(p)).toEqual([true, true, true]);
  });

  it('resourceVersionChangedPredicate skips resyncs (same resourceVersion)', () => {
    const p = resourceVersionChangedPredicate<V1ConfigMap>();
    expect(update(p, obj({ resourceVersion: '1' }), obj({ resourceVersion: '2' }))).toBe(true);
    expect(update(p, obj({ resourceVersion: '1' }), obj({ resourceVersion: '1' }))).toBe(false);
  });

  it('labelChangedPredicate and annotationChangedPredicate compare maps, absent equal to empty', () => {
    const labels = labelChangedPredicate<V1ConfigMap>();
    expect(update(labels, obj({ labels: { a: '1' } }), obj({ labels: { a: '2' } }))).toBe(true);
    expect(update(labels, obj({ labels: { a: '1' } }), obj({ labels: { a: '1', b: '' } }))).toBe(
      true,
    );
    expect(update(labels, obj({ labels: { a: '1' } }), obj({ labels: { a: '1' } }))).toBe(false);
    expect(update(labels, obj(), obj({ labels: {} }))).toBe(false);
    const annotations = annotationChangedPredicate<V1ConfigMap>();
    expect(update(annotations, obj({ annotations: { x: 'y' } }), obj())).toBe(true);
    expect(
      update(annotations, obj({ annotations: { x: 'y' } }), obj({ annotations: { x: 'y' } })),
    ).toBe(false);
    expect(others(annotations)).toEqual([true, true, true]);
  });

  it('labelSelectorPredicate and newPredicateFuncs filter every event on the object (new one on update)', () => {
    const p = labelSelectorPredicate<V1ConfigMap>('app=web');
    expect(p.create({ object: obj({ labels: { app: 'web' } }) })).toBe(true);
    expect(p.create({ object: obj() })).toBe(false);
    expect(update(p, obj(), obj({ labels: { app: 'web' } }))).toBe(true);
    const named = newPredicateFuncs<V1ConfigMap>((o) => o.metadata?.name === 'a');
    expect(others(named)).toEqual([true, true, true]);
  });

  it('and / or / not combine predicates per event type', () => {
    const no = predicateFuncs<V1ConfigMap>({ create: () => false });
    const yes = predicateFuncs<V1ConfigMap>({});
    expect(and(yes, no).create({ object: obj() })).toBe(false);
    expect(and(yes, no).update({ objectOld: obj(), objectNew: obj() })).toBe(true);
    expect(or(yes, no).create({ object: obj() })).toBe(true);
    expect(or(no).create({ object: obj() })).toBe(false);
    expect(or<V1ConfigMap>().create({ object: obj() })).toBe(false);
    expect(and<V1ConfigMap>().create({ object: obj() })).toBe(true);
    expect(not(no).create({ object: obj() })).toBe(true);
    expect(not(no).delete({ object: obj(), deleteStateUnknown: true })).toBe(false);
  });
});
