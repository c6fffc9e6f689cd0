import { describe, expect, it } from 'vitest';
import { devicesDeepEqual } from './devices-deep-equal.js';

describe('devicesDeepEqual', () => {
  it('treats an absent list or map as empty', () => {
    expect(devicesDeepEqual(undefined, [])).toBe(true);
    expect(devicesDeepEqual([{ name: 'd', attributes: {} }], [{ name: 'd' }])).toBe(true);
    expect(devicesDeepEqual([{ name: 'd', taints: [] }], [{ name: 'd' }])).toBe(true);
  });

  it('compares quantities by value', () => {
    expect(
      devicesDeepEqual(
        [{ name: 'd', capacity: { memory: { value: '1Gi' } } }],
        [{ name: 'd', capacity: { memory: { value: '1024Mi' } } }],
      ),
    ).toBe(true);
    expect(
      devicesDeepEqual(
        [{ name: 'd', capacity: { memory: { value: '1G' } } }],
        [{ name: 'd', capacity: { memory: { value: '1Gi' } } }],
      ),
    ).toBe(false);
    expect(
      devicesDeepEqual(
        [{ name: 'd', capacity: { cpu: { value: '500m' } } }],
        [{ name: 'd', capacity: { cpu: { value: '0.5' } } }],
      ),
    ).toBe(true);
  });

  it('does not take string attributes for quantities', () => {
    expect(
      devicesDeepEqual(
        [{ name: 'd', attributes: { a: { string: '1k' } } }],
        [{ name: 'd', attributes: { a: { string: '1000' } } }],
      ),
    ).toBe(false);
  });

  it('is order-sensitive', () => {
    expect(devicesDeepEqual([{ name: 'a' }, { name: 'b' }], [{ name: 'b' }, { name: 'a' }])).toBe(
      false,
    );
  });

  it('a taint without timeAdded equals one with it; times within 1 s are equal', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    const taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
    expect(
      devicesDeepEqual(
        [{ name: 'd', taints: [taint] }],
        [{ name: 'd', taints: [{ ...taint, timeAdded: t }] }],
      ),
    ).toBe(true);
    expect(
      devicesDeepEqual(
        [{ name: 'd', taints: [{ ...taint, timeAdded: t }] }],
        [
          {
            name: 'd',
            taints: [{ ...taint, timeAdded: '2026-01-01T00:00:01Z' as unknown as Date }],
          },
        ],
      ),
    ).toBe(true);
    expect(
      devicesDeepEqual(
        [{ name: 'd', taints: [{ ...taint, timeAdded: t }] }],
        [{ name: 'd', taints: [{ ...taint, timeAdded: new Date(t.getTime() + 1500) }] }],
      ),
    ).toBe(false);
    expect(
      devicesDeepEqual(
        [{ name: 'd', taints: [taint] }],
        [{ name: 'd', taints: [{ ...taint, value: 'w' }] }],
      ),
    ).toBe(false);
  });

  it('a false pointer is not absent', () => {
    expect(
      devicesDeepEqual([{ name: 'd', allowMultipleAllocations: false }], [{ name: 'd' }]),
    ).toBe(false);
  });
});
