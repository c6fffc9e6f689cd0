import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podShouldEnqueue, podsEffectivelyEqual, podsEqual, sameJson } from './pod-equality.js';

const base: Wire<V1Pod> = {
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '1', labels: { a: 'b' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
  status: { phase: 'Pending' },
};

describe('pod equality', () => {
  it('TestPodsEqual: copies are equal, an image change is not, a status-only change still is', () => {
    expect(podsEqual(base, structuredClone(base))).toBe(true);
    const image = structuredClone(base);
    (image.spec?.containers[0] ?? { name: '' }).image = 'nginx:2';
    expect(podsEqual(base, image)).toBe(false);
    expect(podsEqual(base, { ...base, status: { phase: 'Running' } })).toBe(true);
  });

  it('TestPodShouldEnqueue: deletionTimestamp, label, annotation and grace period changes enqueue; status-only does not', () => {
    const change = (f: (p: Wire<V1Pod>) => void) => {
      const p = structuredClone(base);
      f(p);
      return podShouldEnqueue(base, p);
    };
    const withMeta = (meta: NonNullable<Wire<V1Pod>['metadata']>) =>
      change((p) => {
        p.metadata = { ...p.metadata, ...meta };
      });
    expect(withMeta({ deletionTimestamp: new Date().toISOString() })).toBe(true);
    expect(withMeta({ labels: { a: 'c' } })).toBe(true);
    expect(withMeta({ annotations: { x: 'y' } })).toBe(true);
    expect(withMeta({ deletionGracePeriodSeconds: 30 })).toBe(true);
    expect(
      change((p) => {
        p.status = { phase: 'Running' };
      }),
    ).toBe(false);
  });

  it('TestPodsEffectivelyEqual: resourceVersion and status are ignored, labels are not', () => {
    expect(
      podsEffectivelyEqual(base, {
        ...base,
        metadata: { ...base.metadata, resourceVersion: '2' },
        status: {},
      }),
    ).toBe(true);
    expect(
      podsEffectivelyEqual(base, { ...base, metadata: { ...base.metadata, labels: {} } }),
    ).toBe(false);
  });
});

describe('sameJson', () => {
  it('compares as JSON.stringify would write: key order, undefined properties and Dates do not matter', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(
      sameJson({ t: new Date('2026-01-01T00:00:00Z') }, { t: '2026-01-01T00:00:00.000Z' }),
    ).toBe(true);
    expect(sameJson(undefined, undefined)).toBe(true);
    expect(sameJson(undefined, null)).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
  });
});
