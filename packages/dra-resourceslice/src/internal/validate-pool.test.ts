import { describe, expect, it } from 'vitest';
import { InvalidDriverResourcesError } from '../invalid-driver-resources-error.js';
import { validateDriverResources } from './validate-pool.js';

const counterSet = { name: 'counterset', counters: { memory: { value: '1' } } };

function problem(
  pools: Parameters<typeof validateDriverResources>[0]['pools'],
): string | undefined {
  try {
    validateDriverResources({ pools });
    return undefined;
  } catch (error) {
    expect(InvalidDriverResourcesError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
}

describe('validateDriverResources (upstream messages)', () => {
  it('detect-resource-pools-with-duplicate-counter-sets', () => {
    expect(
      problem({
        pool: { slices: [{ sharedCounters: [counterSet] }, { sharedCounters: [counterSet] }] },
      }),
    ).toBe('found duplicate counter set "counterset" in pool "pool"');
  });
  it('detect-duplicate-devices', () => {
    expect(
      problem({
        pool: { slices: [{ devices: [{ name: 'device' }] }, { devices: [{ name: 'device' }] }] },
      }),
    ).toBe('found duplicate device "device" in pool "pool"');
  });
  it('detect-device-referencing-unknown-counter-set', () => {
    expect(
      problem({
        pool: {
          slices: [
            {
              devices: [
                { name: 'device', consumesCounters: [{ counterSet: 'counterset', counters: {} }] },
              ],
            },
          ],
        },
      }),
    ).toBe('counter set "counterset" referenced by device "device" not found');
  });
  it('detect-device-referencing-unknown-counter-in-counter-set', () => {
    expect(
      problem({
        pool: {
          slices: [
            { sharedCounters: [counterSet] },
            {
              devices: [
                {
                  name: 'device',
                  consumesCounters: [
                    { counterSet: 'counterset', counters: { cpu: { value: '1' } } },
                  ],
                },
              ],
            },
          ],
        },
      }),
    ).toBe('counter "cpu" referenced by device "device" not found in counter set "counterset"');
  });
  it('accepts a valid pool', () => {
    expect(
      problem({
        pool: {
          slices: [{ sharedCounters: [counterSet] }, { devices: [{ name: 'a' }, { name: 'b' }] }],
        },
      }),
    ).toBe(undefined);
  });
});
