//! The driver's opaque device configuration, GpuConfig (gpu.resource.example.com/v1alpha1), as upstream's configapi.

/** The API group of the driver's configuration objects. */
export const GPU_CONFIG_GROUP = 'gpu.resource.example.com';
/** The one version of {@link GPU_CONFIG_GROUP}. */
export const GPU_CONFIG_VERSION = 'v1alpha1';
/** `apiVersion` of a GpuConfig: `gpu.resource.example.com/v1alpha1`. */
export const GPU_CONFIG_API_VERSION = `${GPU_CONFIG_GROUP}/${GPU_CONFIG_VERSION}`;
/** `kind` of a GpuConfig. */
export const GPU_CONFIG_KIND = 'GpuConfig';

/** The sharing strategies a GPU supports. */
export const GPU_SHARING_STRATEGIES = ['TimeSlicing', 'SpacePartitioning'] as const;
/** How a GPU is shared between the containers given it. */
export type GpuSharingStrategy = (typeof GPU_SHARING_STRATEGIES)[number];

/** The time-slice intervals of the `TimeSlicing` strategy. */
export const TIME_SLICE_INTERVALS = ['Default', 'Short', 'Medium', 'Long'] as const;
/** A time-slice interval. */
export type TimeSliceInterval = (typeof TIME_SLICE_INTERVALS)[number];

/** Settings of the `TimeSlicing` strategy. */
export interface TimeSlicingConfig {
  interval?: string;
}

/** Settings of the `SpacePartitioning` strategy. */
export interface SpacePartitioningConfig {
  /** At least 0; omitted means 0. */
  partitionCount?: number;
}

/** The sharing settings: a strategy, and the settings of each strategy (those of the one not chosen are ignored). */
export interface GpuSharing {
  strategy: string;
  timeSlicingConfig?: TimeSlicingConfig;
  spacePartitioningConfig?: SpacePartitioningConfig;
}

/** A GpuConfig, the `opaque.parameters` of a claim's device configuration for the driver. */
export interface GpuConfig {
  apiVersion: typeof GPU_CONFIG_API_VERSION;
  kind: typeof GPU_CONFIG_KIND;
  sharing?: GpuSharing;
}

/** The configuration of a GPU whose claim gives none: time slicing with the default interval (upstream's `DefaultGpuConfig`). */
export function defaultGpuConfig(): GpuConfig {
  return {
    apiVersion: GPU_CONFIG_API_VERSION,
    kind: GPU_CONFIG_KIND,
    sharing: { strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Default' } },
  };
}

/**
 * A copy of `config` with upstream's defaults filled in (`Normalize`): no sharing means
 * `TimeSlicing`; `TimeSlicing` without settings means interval `Default`;
 * `SpacePartitioning` without settings means one partition.
 */
export function normalizeGpuConfig(config: GpuConfig): GpuConfig {
  const normalized = structuredClone(config);
  normalized.sharing ??= { strategy: 'TimeSlicing' };
  const sharing = normalized.sharing;
  if (sharing.strategy === 'TimeSlicing') sharing.timeSlicingConfig ??= { interval: 'Default' };
  if (sharing.strategy === 'SpacePartitioning') {
    sharing.spacePartitioningConfig ??= { partitionCount: 1 };
  }
  return normalized;
}
