//! Applies the opaque `GpuConfig` to a claim's GPUs, as upstream's kubelet plugin does.

import { InvalidArgumentError } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type {
  V1DeviceAllocationConfiguration,
  V1DeviceRequestAllocationResult,
} from '@kubernetes/client-node';

/** The API version of `GpuConfig`: `gpu.resource.example.com/v1alpha1`. */
export const GPU_CONFIG_API_VERSION = 'gpu.resource.example.com/v1alpha1';
/** The kind of the opaque config this driver applies. */
export const GPU_CONFIG_KIND = 'GpuConfig';

/** The sharing strategies of a GPU. */
export type GpuSharingStrategy = 'TimeSlicing' | 'SpacePartitioning';
/** The time-slice intervals of the `TimeSlicing` strategy. */
export type TimeSliceInterval = 'Default' | 'Short' | 'Medium' | 'Long';

/** A `GpuConfig` after normalization: the sharing strategy and its one setting, filled in. */
export type NormalizedGpuConfig =
  | { sharing: { strategy: 'TimeSlicing'; timeSlicingConfig: { interval: TimeSliceInterval } } }
  | {
      sharing: {
        strategy: 'SpacePartitioning';
        spacePartitioningConfig: { partitionCount: number };
      };
    };

/** The config upstream applies when neither the class nor the claim has one. */
export const DEFAULT_GPU_CONFIG: NormalizedGpuConfig = {
  sharing: { strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Default' } },
};

const INTERVALS: readonly string[] = ['Default', 'Short', 'Medium', 'Long'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failAt(field: string, message: string): never {
  throw new InvalidArgumentError(field, message);
}

function objectAt(value: unknown, field: string): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) failAt(field, `must be an object, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * Decodes opaque `parameters` as a `GpuConfig` and normalizes it as upstream's `Normalize`:
 * no `sharing` is `TimeSlicing`; `TimeSlicing` without a config gets interval `Default`;
 * `SpacePartitioning` without one gets `partitionCount` 1. Throws InvalidArgumentError
 * naming the field for what cannot be applied: another kind or version, an unknown
 * strategy or interval, a negative partition count, or the other strategy's config.
 */
export function normalizeGpuConfig(parameters: unknown, at = 'parameters'): NormalizedGpuConfig {
  const fail = (field: string, message: string): never => failAt(`${at}${field}`, message);
  const optionalObject = (value: unknown, field: string) => objectAt(value, `${at}${field}`);
  if (!isObject(parameters)) return fail('', 'must be a JSON object (a GpuConfig)');
  if (parameters.apiVersion !== GPU_CONFIG_API_VERSION || parameters.kind !== GPU_CONFIG_KIND) {
    fail(
      '',
      `must be apiVersion ${GPU_CONFIG_API_VERSION}, kind ${GPU_CONFIG_KIND}; got ` +
        `${String(parameters.apiVersion)}, ${String(parameters.kind)}`,
    );
  }
  const sharing = optionalObject(parameters.sharing, '.sharing') ?? { strategy: 'TimeSlicing' };
  const timeSlicing = optionalObject(sharing.timeSlicingConfig, '.sharing.timeSlicingConfig');
  const spacePartitioning = optionalObject(
    sharing.spacePartitioningConfig,
    '.sharing.spacePartitioningConfig',
  );
  if (sharing.strategy === 'TimeSlicing') {
    if (spacePartitioning)
      fail('.sharing.spacePartitioningConfig', 'cannot be used with the TimeSlicing strategy');
    const interval = timeSlicing === undefined ? 'Default' : timeSlicing.interval;
    if (typeof interval !== 'string' || !INTERVALS.includes(interval))
      return fail(
        '.sharing.timeSlicingConfig.interval',
        `unknown time-slice interval: ${String(interval)}`,
      );
    return {
      sharing: {
        strategy: 'TimeSlicing',
        timeSlicingConfig: { interval: interval as TimeSliceInterval },
      },
    };
  }
  if (sharing.strategy === 'SpacePartitioning') {
    if (timeSlicing)
      fail('.sharing.timeSlicingConfig', 'cannot be used with the SpacePartitioning strategy');
    const count = spacePartitioning === undefined ? 1 : (spacePartitioning.partitionCount ?? 0);
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
      return fail(
        '.sharing.spacePartitioningConfig.partitionCount',
        `invalid partition count: ${String(count)}`,
      );
    return {
      sharing: {
        strategy: 'SpacePartitioning',
        spacePartitioningConfig: { partitionCount: count },
      },
    };
  }
  return fail('.sharing.strategy', `unknown GPU sharing strategy: ${String(sharing.strategy)}`);
}

/** One config of the claim's allocation that is this driver's, decoded, with its rank. */
interface Candidate {
  config: NormalizedGpuConfig;
  fromClaim: boolean;
  requests: readonly string[];
  index: number;
}

function matches(requests: readonly string[], request: string): boolean {
  const parent = request.split('/')[0] ?? request;
  return requests.includes(request) || requests.includes(parent);
}

/** Higher wins: the claim's over the class's, then request-scoped over claim-wide, then later. */
function rank(c: Candidate): [number, number, number] {
  return [c.fromClaim ? 1 : 0, c.requests.length > 0 ? 1 : 0, c.index];
}

function outranks(a: Candidate, b: Candidate): boolean {
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < ra.length; i++) {
    if ((ra[i] as number) !== (rb[i] as number)) return (ra[i] as number) > (rb[i] as number);
  }
  return false;
}

function decodeCandidates(
  driverName: string,
  configs: readonly Wire<V1DeviceAllocationConfiguration>[],
): Candidate[] {
  const out: Candidate[] = [];
  configs.forEach((c, index) => {
    const field = `status.allocation.devices.config[${index}]`;
    if (c.source !== 'FromClass' && c.source !== 'FromClaim')
      failAt(`${field}.source`, `invalid config source: ${String(c.source)}`);
    if (c.opaque === undefined)
      failAt(`${field}.opaque`, 'only opaque parameters are supported by this driver');
    if (c.opaque.driver !== driverName) return;
    const config = normalizeGpuConfig(c.opaque.parameters, `${field}.opaque.parameters`);
    out.push({ config, fromClaim: c.source === 'FromClaim', requests: c.requests ?? [], index });
  });
  return out;
}

/**
 * The config that applies to each of `results` (this driver's allocation results), in
 * their order: the claim's config over the class's, request-scoped over claim-wide, later
 * over earlier at equal rank, and {@link DEFAULT_GPU_CONFIG} when none matches. A config
 * naming a request `req` also applies to its subrequests `req/<sub>`.
 */
export function configsForResults(
  driverName: string,
  configs: readonly Wire<V1DeviceAllocationConfiguration>[],
  results: readonly Wire<V1DeviceRequestAllocationResult>[],
): NormalizedGpuConfig[] {
  const candidates = decodeCandidates(driverName, configs);
  return results.map((result) => {
    let best: Candidate | undefined;
    for (const c of candidates) {
      if (c.requests.length > 0 && !matches(c.requests, result.request)) continue;
      if (best === undefined || outranks(c, best)) best = c;
    }
    return best?.config ?? DEFAULT_GPU_CONFIG;
  });
}

/** The environment key of a device: `gpu-0` → `0`, `gpu-1-partition-2` → `1_PARTITION_2`. */
export function deviceEnvId(deviceName: string): string {
  return deviceName.replace(/^gpu-/, '').replaceAll('-', '_').toUpperCase();
}

/**
 * The environment upstream gives a device under `config`: `GPU_DEVICE_<id>=<device>`,
 * `GPU_DEVICE_<id>_SHARING_STRATEGY`, then `_TIMESLICE_INTERVAL` or `_PARTITION_COUNT`, and
 * `_MEMORY` / `_COMPUTE` when the result consumed that capacity.
 */
export function gpuEnv(
  result: Wire<V1DeviceRequestAllocationResult>,
  config: NormalizedGpuConfig,
): string[] {
  const id = `GPU_DEVICE_${deviceEnvId(result.device)}`;
  const env = [`${id}=${result.device}`, `${id}_SHARING_STRATEGY=${config.sharing.strategy}`];
  if (config.sharing.strategy === 'TimeSlicing') {
    env.push(`${id}_TIMESLICE_INTERVAL=${config.sharing.timeSlicingConfig.interval}`);
  } else {
    env.push(`${id}_PARTITION_COUNT=${config.sharing.spacePartitioningConfig.partitionCount}`);
  }
  const consumed = result.consumedCapacity as Record<string, unknown> | undefined;
  for (const [key, name] of [
    ['memory', 'MEMORY'],
    ['compute', 'COMPUTE'],
  ] as const) {
    if (consumed?.[key] !== undefined) env.push(`${id}_${name}=${String(consumed[key])}`);
  }
  return env;
}
