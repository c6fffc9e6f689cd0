import { describe, expect, it } from 'vitest';
import { decodeGpuConfig } from './decode-gpu-config.js';
import { defaultGpuConfig, normalizeGpuConfig } from './gpu-config.js';
import { GpuConfigError } from './gpu-config-error.js';

const TYPE = { apiVersion: 'gpu.resource.example.com/v1alpha1', kind: 'GpuConfig' } as const;

function fault(parameters: unknown): { field: string; message: string } {
  try {
    decodeGpuConfig(parameters);
  } catch (error) {
    if (!GpuConfigError.isInstance(error)) throw error;
    return { field: error.field, message: error.message };
  }
  throw new Error('expected decodeGpuConfig to throw');
}

describe('decodeGpuConfig admits (upstream TestGpuConfigValidate)', () => {
  it.each<[string, unknown]>([
    ['the default GpuConfig', defaultGpuConfig()],
    ...['Default', 'Short', 'Medium', 'Long'].map((interval): [string, unknown] => [
      `TimeSlicing with interval ${interval}`,
      { ...TYPE, sharing: { strategy: 'TimeSlicing', timeSlicingConfig: { interval } } },
    ]),
    ['TimeSlicing without settings', { ...TYPE, sharing: { strategy: 'TimeSlicing' } }],
    ...[0, 1, 1000].map((partitionCount): [string, unknown] => [
      `SpacePartitioning with partitionCount ${partitionCount}`,
      {
        ...TYPE,
        sharing: { strategy: 'SpacePartitioning', spacePartitioningConfig: { partitionCount } },
      },
    ]),
    ['SpacePartitioning without settings', { ...TYPE, sharing: { strategy: 'SpacePartitioning' } }],
    [
      'an invalid TimeSlicingConfig ignored when the strategy is SpacePartitioning',
      {
        ...TYPE,
        sharing: {
          strategy: 'SpacePartitioning',
          timeSlicingConfig: {},
          spacePartitioningConfig: { partitionCount: 1 },
        },
      },
    ],
    [
      'an invalid SpacePartitioningConfig ignored when the strategy is TimeSlicing',
      {
        ...TYPE,
        sharing: {
          strategy: 'TimeSlicing',
          timeSlicingConfig: { interval: 'Medium' },
          spacePartitioningConfig: { partitionCount: -1 },
        },
      },
    ],
  ])('%s', (_name, parameters) => {
    expect(decodeGpuConfig(parameters)).toEqual(parameters);
  });
});

describe('decodeGpuConfig rejects, naming the field', () => {
  it.each([
    ['no sharing (upstream: empty GpuConfig)', TYPE, 'sharing', 'sharing: no sharing strategy set'],
    [
      'an empty strategy (upstream: empty GpuConfig.Sharing)',
      { ...TYPE, sharing: {} },
      'sharing.strategy',
      'sharing.strategy: unknown GPU sharing strategy: "" (expected one of TimeSlicing, SpacePartitioning)',
    ],
    [
      'an unknown strategy',
      { ...TYPE, sharing: { strategy: 'unknown' } },
      'sharing.strategy',
      'sharing.strategy: unknown GPU sharing strategy: "unknown" (expected one of TimeSlicing, SpacePartitioning)',
    ],
    [
      'an empty TimeSlicingConfig',
      { ...TYPE, sharing: { strategy: 'TimeSlicing', timeSlicingConfig: {} } },
      'sharing.timeSlicingConfig.interval',
      'sharing.timeSlicingConfig.interval: unknown time-slice interval: "" (expected one of Default, Short, Medium, Long)',
    ],
    [
      'an unknown interval',
      { ...TYPE, sharing: { strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Forever' } } },
      'sharing.timeSlicingConfig.interval',
      'sharing.timeSlicingConfig.interval: unknown time-slice interval: "Forever" (expected one of Default, Short, Medium, Long)',
    ],
    [
      'a negative partitionCount',
      {
        ...TYPE,
        sharing: { strategy: 'SpacePartitioning', spacePartitioningConfig: { partitionCount: -1 } },
      },
      'sharing.spacePartitioningConfig.partitionCount',
      'sharing.spacePartitioningConfig.partitionCount: invalid partition count: -1 (must be 0 or more)',
    ],
    [
      'an unknown top-level field',
      { ...TYPE, metadata: {}, sharing: { strategy: 'TimeSlicing' } },
      'metadata',
      'metadata: unknown field',
    ],
    [
      'an unknown field in sharing',
      { ...TYPE, sharing: { strategy: 'TimeSlicing', mode: 'x' } },
      'sharing.mode',
      'sharing.mode: unknown field',
    ],
    [
      'an unknown field in the settings of the strategy not chosen',
      { ...TYPE, sharing: { strategy: 'TimeSlicing', spacePartitioningConfig: { count: 2 } } },
      'sharing.spacePartitioningConfig.count',
      'sharing.spacePartitioningConfig.count: unknown field',
    ],
    [
      'a partitionCount that is not an integer',
      {
        ...TYPE,
        sharing: {
          strategy: 'SpacePartitioning',
          spacePartitioningConfig: { partitionCount: 1.5 },
        },
      },
      'sharing.spacePartitioningConfig.partitionCount',
      'sharing.spacePartitioningConfig.partitionCount: expected an integer, got number 1.5',
    ],
    [
      'a strategy that is not a string',
      { ...TYPE, sharing: { strategy: 1 } },
      'sharing.strategy',
      'sharing.strategy: expected a string, got number 1',
    ],
    [
      'a wrong kind',
      { ...TYPE, kind: 'NetConfig', sharing: { strategy: 'TimeSlicing' } },
      'kind',
      'kind: expected "GpuConfig", got "NetConfig"',
    ],
    [
      'a wrong version',
      { ...TYPE, apiVersion: 'gpu.resource.example.com/v1', sharing: { strategy: 'TimeSlicing' } },
      'apiVersion',
      'apiVersion: expected "gpu.resource.example.com/v1alpha1", got "gpu.resource.example.com/v1"',
    ],
    [
      'no apiVersion',
      { kind: 'GpuConfig', sharing: { strategy: 'TimeSlicing' } },
      'apiVersion',
      'apiVersion: expected "gpu.resource.example.com/v1alpha1", got ""',
    ],
    ['parameters that are not an object', [1], '', 'expected an object, got an array'],
  ] as const)('%s', (_name, parameters, field, message) => {
    expect(fault(parameters)).toEqual({ field, message });
  });
});

describe('normalizeGpuConfig (upstream Normalize)', () => {
  it('fills in time slicing with the default interval when no sharing is set', () => {
    expect(normalizeGpuConfig(TYPE as never)).toEqual(defaultGpuConfig());
  });

  it('gives SpacePartitioning without settings one partition, and leaves the input alone', () => {
    const config = { ...TYPE, sharing: { strategy: 'SpacePartitioning' } } as const;
    expect(normalizeGpuConfig(config).sharing?.spacePartitioningConfig).toEqual({
      partitionCount: 1,
    });
    expect(config.sharing).toEqual({ strategy: 'SpacePartitioning' });
  });
});
