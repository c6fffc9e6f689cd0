import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podShouldEnqueue, podsEffectivelyEqual, podsEqual } from './pod-equality.js';

const base: V1Pod = {
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
    const change = (f: (p: V1Pod) => void) => {
      const p = structuredClone(base);
      f(p);
      return podShouldEnqueue(base, p);
    };
    const withMeta = (meta: NonNullable<V1Pod['metadata']>) =>
      change((p) => {
        p.metadata = { ...p.metadata, ...meta };
      });
    expect(withMeta({ deletionTimestamp: new Date() })).toBe(true);
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
