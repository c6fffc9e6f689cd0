import { describe, expect, it } from 'vitest';
import { defaultGpuConfig, GPU_CONFIG_API_VERSION } from '../gpu-config/gpu-config.js';
import { GpuConfigError } from '../gpu-config/gpu-config-error.js';
import { applicableGpuConfig, configsForResults, deviceEnvId, gpuEnv } from './gpu-config-apply.js';

const DEFAULT_GPU_CONFIG = defaultGpuConfig();

const DRIVER = 'gpu.example.com';
const result = (request: string, device: string) => ({
  request,
  driver: DRIVER,
  pool: 'node-a',
  device,
});
const gpuConfig = (sharing?: object) => ({
  apiVersion: GPU_CONFIG_API_VERSION,
  kind: 'GpuConfig',
  ...(sharing && { sharing }),
});
const timeSlicing = (interval: string) =>
  gpuConfig({ strategy: 'TimeSlicing', timeSlicingConfig: { interval } });
const opaque = (source: 'FromClass' | 'FromClaim', parameters: object, requests?: string[]) => ({
  source,
  ...(requests && { requests }),
  opaque: { driver: DRIVER, parameters },
});

describe('applicableGpuConfig (upstream strict decode, Normalize, Validate)', () => {
  it('no sharing is TimeSlicing with interval Default', () => {
    expect(applicableGpuConfig(gpuConfig())).toEqual(DEFAULT_GPU_CONFIG);
  });
  it('SpacePartitioning without a config gets partitionCount 1', () => {
    expect(applicableGpuConfig(gpuConfig({ strategy: 'SpacePartitioning' }))).toEqual(
      gpuConfig({ strategy: 'SpacePartitioning', spacePartitioningConfig: { partitionCount: 1 } }),
    );
  });
  it('accepts, as upstream and the webhook do, the settings of the strategy not chosen, and ignores them', () => {
    const both = gpuConfig({
      strategy: 'TimeSlicing',
      timeSlicingConfig: { interval: 'Long' },
      spacePartitioningConfig: { partitionCount: 2 },
    });
    expect(gpuEnv(result('gpu', 'gpu-0'), applicableGpuConfig(both))).toEqual([
      'GPU_DEVICE_0=gpu-0',
      'GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing',
      'GPU_DEVICE_0_TIMESLICE_INTERVAL=Long',
    ]);
  });
  it('refuses what cannot be applied, naming the field', () => {
    const bad: Array<[unknown, string]> = [
      [{ apiVersion: 'v1', kind: 'GpuConfig' }, 'parameters.apiVersion: expected'],
      [
        gpuConfig({ strategy: 'Magic' }),
        'parameters.sharing.strategy: unknown GPU sharing strategy: "Magic"',
      ],
      [timeSlicing('Forever'), 'parameters.sharing.timeSlicingConfig.interval'],
      [
        gpuConfig({ strategy: 'TimeSlicing', timeSlicingConfig: {} }),
        'unknown time-slice interval: ""',
      ],
      [
        gpuConfig({
          strategy: 'SpacePartitioning',
          spacePartitioningConfig: { partitionCount: -1 },
        }),
        'invalid partition count: -1',
      ],
      [
        gpuConfig({ strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Long', extra: 1 } }),
        'parameters.sharing.timeSlicingConfig.extra: unknown field',
      ],
      ['text', 'parameters: expected an object, got string "text"'],
    ];
    for (const [parameters, message] of bad) {
      expect(() => applicableGpuConfig(parameters)).toThrow(GpuConfigError);
      expect(() => applicableGpuConfig(parameters)).toThrow(message);
    }
  });
});

describe('configsForResults: which config applies to a device', () => {
  it('the default when the claim and its class have none', () => {
    expect(configsForResults(DRIVER, [], [result('gpu', 'gpu-0')])).toEqual([DEFAULT_GPU_CONFIG]);
  });
  it("the claim's config over the class's", () => {
    const configs = [
      opaque('FromClaim', timeSlicing('Long')),
      opaque('FromClass', timeSlicing('Short'), ['gpu']),
    ];
    const [config] = configsForResults(DRIVER, configs, [result('gpu', 'gpu-0')]);
    expect(config).toEqual(applicableGpuConfig(timeSlicing('Long')));
  });
  it('the class config applies when the claim has none for the device', () => {
    const configs = [opaque('FromClass', timeSlicing('Short'), ['gpu'])];
    expect(configsForResults(DRIVER, configs, [result('gpu', 'gpu-0')])).toEqual([
      applicableGpuConfig(timeSlicing('Short')),
    ]);
  });
  it('request-scoped over claim-wide, whatever their order; the others keep the claim-wide one', () => {
    const configs = [
      opaque('FromClaim', timeSlicing('Medium'), ['b']),
      opaque('FromClaim', timeSlicing('Long')),
    ];
    const applied = configsForResults(DRIVER, configs, [
      result('a', 'gpu-0'),
      result('b', 'gpu-1'),
    ]);
    expect(applied).toEqual([
      applicableGpuConfig(timeSlicing('Long')),
      applicableGpuConfig(timeSlicing('Medium')),
    ]);
  });
  it('a config naming a request applies to its subrequests', () => {
    const configs = [opaque('FromClaim', timeSlicing('Short'), ['gpu'])];
    expect(configsForResults(DRIVER, configs, [result('gpu/small', 'gpu-0')])).toEqual([
      applicableGpuConfig(timeSlicing('Short')),
    ]);
  });
  it("other drivers' configs are ignored; a non-opaque config and a bad GpuConfig are refused with the field", () => {
    const other = {
      source: 'FromClaim',
      opaque: { driver: 'net.example.com', parameters: { x: 1 } },
    };
    expect(configsForResults(DRIVER, [other], [result('gpu', 'gpu-0')])).toEqual([
      DEFAULT_GPU_CONFIG,
    ]);
    expect(() => configsForResults(DRIVER, [{ source: 'FromClaim' }], [])).toThrow(
      'invalid status.allocation.devices.config[0].opaque: only opaque parameters are supported by this driver',
    );
    expect(() =>
      configsForResults(DRIVER, [other, opaque('FromClaim', gpuConfig({ strategy: 'Magic' }))], []),
    ).toThrow(
      'status.allocation.devices.config[1].opaque.parameters.sharing.strategy: unknown GPU sharing strategy',
    );
  });
});

describe('gpuEnv: the environment upstream gives a device', () => {
  it('GPU_DEVICE_<n>, the strategy and its setting', () => {
    expect(gpuEnv(result('gpu', 'gpu-0'), DEFAULT_GPU_CONFIG)).toEqual([
      'GPU_DEVICE_0=gpu-0',
      'GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing',
      'GPU_DEVICE_0_TIMESLICE_INTERVAL=Default',
    ]);
    const spacePartitioning = applicableGpuConfig(
      gpuConfig({ strategy: 'SpacePartitioning', spacePartitioningConfig: { partitionCount: 4 } }),
    );
    expect(gpuEnv(result('gpu', 'gpu-3'), spacePartitioning)).toEqual([
      'GPU_DEVICE_3=gpu-3',
      'GPU_DEVICE_3_SHARING_STRATEGY=SpacePartitioning',
      'GPU_DEVICE_3_PARTITION_COUNT=4',
    ]);
  });
  it('a partition: an env-safe id, and the consumed memory and compute', () => {
    expect(deviceEnvId('gpu-1-partition-2')).toBe('1_PARTITION_2');
    const r = {
      ...result('gpu', 'gpu-1-partition-2'),
      consumedCapacity: { memory: '40Gi', compute: '50' },
    };
    expect(gpuEnv(r, DEFAULT_GPU_CONFIG).slice(3)).toEqual([
      'GPU_DEVICE_1_PARTITION_2_MEMORY=40Gi',
      'GPU_DEVICE_1_PARTITION_2_COMPUTE=50',
    ]);
  });
});
