// The upstream "drop-*" rows: a second control plane (kube-apiserver v1.37.2) with the four
// DRA features off, so the apiserver drops their fields as upstream's fake client simulates.
// All four gates can still be turned off in 1.37 (DRADeviceTaints is GA there but not yet
// locked to its default; DRAPartitionableDevices, DRADeviceBindingConditions and
// DRAConsumableCapacity are beta). DRADeviceTaintRules depends on DRADeviceTaints, so it
// is turned off too (the apiserver refuses to start otherwise).

import { type ControlPlane, startControlPlane } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { device, runScenario } from '../test/scenario-runner.js';

let plane: ControlPlane;

beforeAll(async () => {
  plane = await startControlPlane({
    apiServerFlags: {
      'feature-gates':
        'DRADeviceTaints=false,DRADeviceTaintRules=false,DRAPartitionableDevices=false,DRADeviceBindingConditions=false,DRAConsumableCapacity=false',
    },
  });
}, 180_000);
afterAll(async () => {
  await plane?.stop();
});

const dropped = (index: number, message: string, feature: string) =>
  `${message}: pool "pool", slice #${index}: some fields were dropped by the apiserver, probably because these features are disabled: ${feature}`;

describe('upstream drop-* scenarios against kube-apiserver with the DRA features off', () => {
  it('drop-taints', async () => {
    await runScenario(plane.kubeConfig, {
      initial: () => [{ name: 's1', spec: { devices: [device('device')] } }],
      resources: (e) => ({
        pools: {
          [e.pool]: {
            generation: 1,
            slices: [
              {
                devices: [
                  device('device', { taints: [{ key: 'example.com/t', effect: 'NoExecute' }] }),
                ],
              },
            ],
          },
        },
      }),
      stats: { numUpdates: 1 },
      errors: () => [dropped(0, 'update ResourceSlice', 'DRADeviceTaints')],
      check: (slices) => expect(slices[0]?.spec?.devices).toEqual([{ name: 'device' }]),
    });
  });

  it('drop-consumable-capacity-field', async () => {
    await runScenario(plane.kubeConfig, {
      initial: () => [{ name: 's1', spec: { devices: [device('device')] } }],
      resources: (e) => ({
        pools: {
          [e.pool]: {
            generation: 1,
            slices: [{ devices: [device('device', { allowMultipleAllocations: true })] }],
          },
        },
      }),
      stats: { numUpdates: 1 },
      errors: () => [dropped(0, 'update ResourceSlice', 'DRAConsumableCapacity')],
      check: (slices) => expect(slices[0]?.spec?.devices).toEqual([{ name: 'device' }]),
    });
  });

  it('drop-partitionable-devices', async () => {
    await runScenario(plane.kubeConfig, {
      resources: (e) => ({
        pools: {
          [e.pool]: {
            generation: 1,
            slices: [
              {
                perDeviceNodeSelection: true,
                sharedCounters: [{ name: 'gpu-0', counters: { mem: { value: '1' } } }],
              },
              {
                perDeviceNodeSelection: true,
                devices: [
                  device('device', {
                    nodeName: e.owner,
                    consumesCounters: [{ counterSet: 'gpu-0', counters: { mem: { value: '1' } } }],
                  }),
                ],
              },
            ],
          },
        },
      }),
      stats: { numCreates: 2 },
      errors: () => [
        dropped(0, 'create ResourceSlice', 'DRAPartitionableDevices'),
        dropped(1, 'create ResourceSlice', 'DRAPartitionableDevices'),
      ],
      check: (slices, e) => {
        expect(slices).toHaveLength(2);
        for (const slice of slices) {
          expect(slice.spec?.perDeviceNodeSelection).toBeUndefined();
          expect(slice.spec?.sharedCounters).toBeUndefined();
          expect(slice.spec?.nodeName).toBe(e.owner);
          expect(slice.spec?.pool).toEqual({ name: 'pool', generation: 1, resourceSliceCount: 2 });
        }
        expect(slices.flatMap((s) => s.spec?.devices ?? [])).toEqual([{ name: 'device' }]);
      },
    });
  });

  it('drop-device-with-binding-condition', async () => {
    await runScenario(plane.kubeConfig, {
      resources: (e) => ({
        pools: {
          [e.pool]: {
            generation: 1,
            slices: [
              {
                devices: [
                  device('device', {
                    bindingConditions: ['condition1'],
                    bindingFailureConditions: ['failure-condition1'],
                    bindsToNode: true,
                  }),
                ],
              },
            ],
          },
        },
      }),
      stats: { numCreates: 1 },
      errors: () => [dropped(0, 'create ResourceSlice', 'DRADeviceBindingConditions')],
      check: (slices) => expect(slices[0]?.spec?.devices).toEqual([{ name: 'device' }]),
    });
  });
});
