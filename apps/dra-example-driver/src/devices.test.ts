import { validateApiLimits } from '@ctrlkit/dra-resourceslice';
import { describe, expect, it } from 'vitest';
import { gpuResources, gpuUuids, nodeSeed } from './devices.js';

describe('simulated GPUs', () => {
  it('publishes gpu-0..gpu-7 in one slice of a pool named after the node', () => {
    const resources = gpuResources({ nodeName: 'node-a', numDevices: 8, partitions: 0 });
    const slices = resources.pools['node-a']?.slices ?? [];
    expect(slices).toHaveLength(1);
    const devices = slices[0]?.devices ?? [];
    expect(devices.map((d) => d.name)).toEqual(Array.from({ length: 8 }, (_, i) => `gpu-${i}`));
    expect(devices[3]?.attributes).toMatchObject({
      index: { int: 3 },
      model: { string: 'LATEST-GPU-MODEL' },
      driverVersion: { version: '1.0.0' },
    });
    expect(devices[3]?.attributes?.uuid?.string).toMatch(
      /^gpu-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(devices[3]?.capacity).toEqual({ memory: { value: '80Gi' } });
    expect(() => validateApiLimits(resources, { nodeName: 'node-a' })).not.toThrow();
  });

  it('seeds UUIDs by node name: stable per node, different across nodes', () => {
    expect(nodeSeed('a')).toBe(97);
    expect(nodeSeed('ab')).toBe(31 * 97 + 98);
    expect(gpuUuids('node-a', 4)).toEqual(gpuUuids('node-a', 4));
    expect(gpuUuids('node-a', 4)).not.toEqual(gpuUuids('node-b', 4));
    expect(new Set(gpuUuids('node-a', 64)).size).toBe(64);
  });

  it('publishes partitions with shared counters as [counters, devices]', () => {
    const resources = gpuResources({ nodeName: 'node-a', numDevices: 2, partitions: 2 });
    const [counters, devices] = resources.pools['node-a']?.slices ?? [];
    expect(counters?.sharedCounters?.map((c) => c.name)).toEqual([
      'gpu-0-counters',
      'gpu-1-counters',
    ]);
    expect(devices?.devices?.map((d) => d.name)).toEqual([
      'gpu-0-full',
      'gpu-0-partition-0',
      'gpu-0-partition-1',
      'gpu-1-full',
      'gpu-1-partition-0',
      'gpu-1-partition-1',
    ]);
    expect(devices?.devices?.[1]?.consumesCounters).toEqual([
      {
        counterSet: 'gpu-0-counters',
        counters: { memory: { value: '40960Mi' }, compute: { value: '50' } },
      },
    ]);
    expect(() => validateApiLimits(resources, { nodeName: 'node-a' })).not.toThrow();
  });
});
