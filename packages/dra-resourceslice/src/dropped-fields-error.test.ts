import type { V1ResourceSlice } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DroppedFieldsError } from './dropped-fields-error.js';

const slice = (spec: Partial<NonNullable<V1ResourceSlice['spec']>>): V1ResourceSlice => ({
  spec: { driver: 'driver', pool: { name: 'pool', generation: 1, resourceSliceCount: 1 }, ...spec },
});

describe('DroppedFieldsError', () => {
  it('names the disabled features in upstream order and message', () => {
    const error = new DroppedFieldsError(
      'pool',
      1,
      slice({
        perDeviceNodeSelection: true,
        devices: [
          {
            name: 'd',
            taints: [{ key: 'k', effect: 'NoSchedule' }],
            bindingConditions: ['c'],
            allowMultipleAllocations: true,
          },
        ],
      }),
      slice({ devices: [{ name: 'd' }] }),
    );
    expect(error.disabledFeatures()).toEqual([
      'DRADeviceTaints',
      'DRAPartitionableDevices',
      'DRADeviceBindingConditions',
      'DRAConsumableCapacity',
    ]);
    expect(error.message).toBe(
      'pool "pool", slice #1: some fields were dropped by the apiserver, probably because these features are disabled: DRADeviceTaints DRAPartitionableDevices DRADeviceBindingConditions DRAConsumableCapacity',
    );
    expect(error.reason).toBe('DroppedFields');
    expect(DroppedFieldsError.isInstance(error)).toBe(true);
    expect(DroppedFieldsError.isInstance(new Error('x'))).toBe(false);
  });

  it('detects dropped consumesCounters and shared counters as DRAPartitionableDevices', () => {
    const counters = new DroppedFieldsError(
      'p',
      0,
      slice({ sharedCounters: [{ name: 'gpu', counters: { mem: { value: '1' } } }] }),
      slice({}),
    );
    expect(counters.disabledFeatures()).toEqual(['DRAPartitionableDevices']);
    const consumes = new DroppedFieldsError(
      'p',
      0,
      slice({ devices: [{ name: 'd', consumesCounters: [{ counterSet: 'gpu', counters: {} }] }] }),
      slice({ devices: [{ name: 'd' }] }),
    );
    expect(consumes.disabledFeatures()).toEqual(['DRAPartitionableDevices']);
  });

  it('says unknown when nothing explains the difference', () => {
    const error = new DroppedFieldsError(
      'p',
      0,
      slice({ devices: [{ name: 'd', attributes: { a: { _int: 1 } } }] }),
      slice({ devices: [{ name: 'd' }] }),
    );
    expect(error.disabledFeatures()).toEqual([]);
    expect(error.message).toMatch(/disabled: unknown$/);
  });
});
