//! Strict decoding and validation of a GpuConfig, as upstream's webhook decodes (strict) and validates it.

import {
  GPU_CONFIG_API_VERSION,
  GPU_CONFIG_KIND,
  GPU_SHARING_STRATEGIES,
  type GpuConfig,
  type GpuSharing,
  TIME_SLICE_INTERVALS,
} from './gpu-config.js';
import { GpuConfigError } from './gpu-config-error.js';

type Fields = Readonly<Record<string, 'string' | 'integer' | 'object'>>;

const CONFIG_FIELDS: Fields = { apiVersion: 'string', kind: 'string', sharing: 'object' };
const SHARING_FIELDS: Fields = {
  strategy: 'string',
  timeSlicingConfig: 'object',
  spacePartitioningConfig: 'object',
};
const TIME_SLICING_FIELDS: Fields = { interval: 'string' };
const SPACE_PARTITIONING_FIELDS: Fields = { partitionCount: 'integer' };

/**
 * Decodes and validates the `opaque.parameters` of a device configuration for the driver.
 *
 * Rejected, with a {@link GpuConfigError} naming the field: not an object; an `apiVersion`
 * other than `gpu.resource.example.com/v1alpha1` or a `kind` other than `GpuConfig`; an
 * unknown field or a value of the wrong type anywhere (strict decoding); no `sharing`; a
 * strategy other than `TimeSlicing` or `SpacePartitioning`; for `TimeSlicing`, an interval
 * other than `Default`, `Short`, `Medium` or `Long` (when `timeSlicingConfig` is given); for
 * `SpacePartitioning`, a negative `partitionCount`. The settings of the strategy not chosen
 * are decoded but not validated, as upstream. Returns the config as given (see
 * `normalizeGpuConfig` for the defaults).
 */
export function decodeGpuConfig(parameters: unknown): GpuConfig {
  const config = decodeObject(parameters, '', CONFIG_FIELDS);
  if (config.apiVersion !== GPU_CONFIG_API_VERSION) {
    throw new GpuConfigError(
      'apiVersion',
      `expected ${JSON.stringify(GPU_CONFIG_API_VERSION)}, got ${JSON.stringify(config.apiVersion ?? '')}`,
    );
  }
  if (config.kind !== GPU_CONFIG_KIND) {
    throw new GpuConfigError(
      'kind',
      `expected ${JSON.stringify(GPU_CONFIG_KIND)}, got ${JSON.stringify(config.kind ?? '')}`,
    );
  }
  if (config.sharing === undefined) throw new GpuConfigError('sharing', 'no sharing strategy set');
  const sharing = decodeObject(config.sharing, 'sharing', SHARING_FIELDS);
  for (const [field, fields] of [
    ['timeSlicingConfig', TIME_SLICING_FIELDS],
    ['spacePartitioningConfig', SPACE_PARTITIONING_FIELDS],
  ] as const) {
    if (sharing[field] !== undefined) decodeObject(sharing[field], `sharing.${field}`, fields);
  }
  validateSharing(sharing as unknown as GpuSharing);
  return parameters as GpuConfig;
}

function validateSharing(sharing: GpuSharing): void {
  const strategy = sharing.strategy ?? '';
  if (!(GPU_SHARING_STRATEGIES as readonly string[]).includes(strategy)) {
    throw new GpuConfigError(
      'sharing.strategy',
      `unknown GPU sharing strategy: ${JSON.stringify(strategy)} (expected one of ${GPU_SHARING_STRATEGIES.join(', ')})`,
    );
  }
  if (strategy === 'TimeSlicing' && sharing.timeSlicingConfig !== undefined) {
    const interval = sharing.timeSlicingConfig.interval ?? '';
    if (!(TIME_SLICE_INTERVALS as readonly string[]).includes(interval)) {
      throw new GpuConfigError(
        'sharing.timeSlicingConfig.interval',
        `unknown time-slice interval: ${JSON.stringify(interval)} (expected one of ${TIME_SLICE_INTERVALS.join(', ')})`,
      );
    }
  }
  const partitionCount = sharing.spacePartitioningConfig?.partitionCount ?? 0;
  if (strategy === 'SpacePartitioning' && partitionCount < 0) {
    throw new GpuConfigError(
      'sharing.spacePartitioningConfig.partitionCount',
      `invalid partition count: ${partitionCount} (must be 0 or more)`,
    );
  }
}

/** Checks that `value` is an object with only `fields`, each of its type (null counts as absent); drops nulls. */
function decodeObject(value: unknown, path: string, fields: Fields): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GpuConfigError(path, `expected an object, got ${describe(value)}`);
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const at = path === '' ? name : `${path}.${name}`;
    const type = fields[name];
    if (type === undefined) throw new GpuConfigError(at, 'unknown field');
    if (field === null || field === undefined) continue;
    const ok =
      type === 'integer'
        ? Number.isSafeInteger(field)
        : type === 'object'
          ? typeof field === 'object' && !Array.isArray(field)
          : typeof field === type;
    if (!ok) throw new GpuConfigError(at, `expected ${anOf(type)}, got ${describe(field)}`);
    out[name] = field;
  }
  return out;
}

function anOf(type: string): string {
  return type === 'integer' ? 'an integer' : type === 'object' ? 'an object' : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
