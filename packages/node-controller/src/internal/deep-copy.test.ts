import { describe, expect, it } from 'vitest';
import { deepCopy } from './deep-copy.js';

describe('deepCopy', () => {
  it('copies plain objects, arrays and dates so that no part is shared, as structuredClone does', () => {
    const pod = {
      metadata: { name: 'p', labels: { a: 'b' }, finalizers: ['f'] },
      spec: { containers: [{ name: 'c', env: [{ name: 'X', value: '1' }] }], nodeName: null },
      status: { startTime: new Date(5), phase: 'Running', restartCount: 0, ready: true },
      extra: undefined,
    };
    const copy = deepCopy(pod);
    expect(copy).toEqual(structuredClone(pod));
    expect(Object.keys(copy)).toEqual(Object.keys(pod));
    expect(copy.metadata).not.toBe(pod.metadata);
    expect(copy.metadata.finalizers).not.toBe(pod.metadata.finalizers);
    expect(copy.spec.containers[0]?.env).not.toBe(pod.spec.containers[0]?.env);
    expect(copy.status.startTime).toBeInstanceOf(Date);
    expect(copy.status.startTime).not.toBe(pod.status.startTime);
    copy.spec.containers[0]?.env.push({ name: 'Y', value: '2' });
    expect(pod.spec.containers[0]?.env).toHaveLength(1);
  });

  it('hands other objects to structuredClone, and primitives back as they are', () => {
    const map = new Map([['k', { v: 1 }]]);
    const copy = deepCopy({ map });
    expect(copy.map).toBeInstanceOf(Map);
    expect(copy.map).not.toBe(map);
    expect(copy.map.get('k')).toEqual({ v: 1 });
    expect(deepCopy('s')).toBe('s');
    expect(deepCopy(undefined)).toBeUndefined();
  });
});
