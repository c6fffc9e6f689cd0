//! Applies the opaque `GpuConfig` to a claim's GPUs, as upstream's kubelet plugin does.

import { InvalidArgumentError } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type {
  V1DeviceAllocationConfiguration,
  V1DeviceRequestAllocationResult,
} from '@kubernetes/client-node';
import { decodeGpuConfig } from '../gpu-config/decode-gpu-config.js';
import { defaultGpuConfig, type GpuConfig, normalizeGpuConfig } from '../gpu-config/gpu-config.js';
import { GpuConfigError } from '../gpu-config/gpu-config-error.js';

/**
 * Decodes opaque `parameters` as upstream's kubelet plugin does: the webhook's strict
 * decoding and validation ({@link decodeGpuConfig}) of the config with upstream's defaults
 * filled in ({@link normalizeGpuConfig}), so no `sharing` means `TimeSlicing` with interval
 * `Default`. Throws a {@link GpuConfigError} whose `field` is the full path of the fault,
 * `at` followed by the field inside the parameters.
 */
export function applicableGpuConfig(parameters: unknown, at = 'parameters'): GpuConfig {
  const isObject =
    typeof parameters === 'object' && parameters !== null && !Array.isArray(parameters);
  try {
    return decodeGpuConfig(isObject ? normalizeGpuConfig(parameters as GpuConfig) : parameters);
  } catch (error) {
    if (!(error instanceof GpuConfigError)) throw error;
    throw new GpuConfigError(error.field === '' ? at : `${at}.${error.field}`, error.problem);
  }
}

/** One config of the claim's allocation that is this driver's, decoded, with its rank. */
interface Candidate {
  config: GpuConfig;
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
      throw new InvalidArgumentError(
        `${field}.source`,
        `invalid config source: ${String(c.source)}`,
      );
    if (c.opaque === undefined)
      throw new InvalidArgumentError(
        `${field}.opaque`,
        'only opaque parameters are supported by this driver',
      );
    if (c.opaque.driver !== driverName) return;
    const config = applicableGpuConfig(c.opaque.parameters, `${field}.opaque.parameters`);
    out.push({ config, fromClaim: c.source === 'FromClaim', requests: c.requests ?? [], index });
  });
  return out;
}

/**
 * The config that applies to each of `results` (this driver's allocation results), in
 * their order: the claim's config over the class's, request-scoped over claim-wide, later
 * over earlier at equal rank, and upstream's default (`defaultGpuConfig`) when none matches. A config
 * naming a request `req` also applies to its subrequests `req/<sub>`.
 */
export function configsForResults(
  driverName: string,
  configs: readonly Wire<V1DeviceAllocationConfiguration>[],
  results: readonly Wire<V1DeviceRequestAllocationResult>[],
): GpuConfig[] {
  const candidates = decodeCandidates(driverName, configs);
  return results.map((result) => {
    let best: Candidate | undefined;
    for (const c of candidates) {
      if (c.requests.length > 0 && !matches(c.requests, result.request)) continue;
      if (best === undefined || outranks(c, best)) best = c;
    }
    return best?.config ?? defaultGpuConfig();
  });
}

/** The environment key of a device: `gpu-0` → `0`, `gpu-1-partition-2` → `1_PARTITION_2`. */
export function deviceEnvId(deviceName: string): string {
  return deviceName.replace(/^gpu-/, '').replaceAll('-', '_').toUpperCase();
}

/**
 * The environment upstream gives a device under `config` (one of {@link configsForResults}): `GPU_DEVICE_<id>=<device>`,
 * `GPU_DEVICE_<id>_SHARING_STRATEGY`, then `_TIMESLICE_INTERVAL` or `_PARTITION_COUNT`, and
 * `_MEMORY` / `_COMPUTE` when the result consumed that capacity.
 */
export function gpuEnv(result: Wire<V1DeviceRequestAllocationResult>, config: GpuConfig): string[] {
  const id = `GPU_DEVICE_${deviceEnvId(result.device)}`;
  const sharing = config.sharing;
  const env = [`${id}=${result.device}`, `${id}_SHARING_STRATEGY=${sharing?.strategy}`];
  if (sharing?.strategy === 'TimeSlicing') {
    env.push(`${id}_TIMESLICE_INTERVAL=${sharing.timeSlicingConfig?.interval}`);
  } else {
    env.push(`${id}_PARTITION_COUNT=${sharing?.spacePartitioningConfig?.partitionCount}`);
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
