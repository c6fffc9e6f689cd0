//! @ctrlkit/dra-resourceslice: publishes a DRA driver's devices as ResourceSlices (k8s.io/dynamic-resource-allocation/resourceslice v0.35).

export {
  Controller,
  POOL_NAME_INDEX,
  QUEUE_NAME,
  type Stats,
  startController,
} from './controller.js';
export {
  DEFAULT_MUTATION_CACHE_TTL_MS,
  DEFAULT_SYNC_DELAY_MS,
  type ErrorHandler,
  type Options,
} from './controller-options.js';
export { devicesDeepEqual, TAINT_TIME_ADDED_TOLERANCE_MS } from './devices-deep-equal.js';
export {
  type DriverResources,
  deepCopyDriverResources,
  type Owner,
  type Pool,
  type Slice,
} from './driver-resources.js';
export { DroppedFieldsError } from './dropped-fields-error.js';
export { InvalidDriverResourcesError } from './invalid-driver-resources-error.js';
export {
  type DeletePreconditions,
  type KubeClient,
  newKubeClient,
} from './kube-client.js';
export {
  ResourceSliceApiError,
  type ResourceSliceApiOperation,
} from './resource-slice-api-error.js';
export {
  type ApiLimitsContext,
  DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH,
  DEVICE_MAX_BINDING_CONDITIONS,
  DEVICE_MAX_COUNTERS_CONSUMPTIONS,
  DEVICE_MAX_TAINTS,
  isDnsLabel,
  isDnsSubdomain,
  RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE,
  RESOURCE_SLICE_MAX_COUNTER_SETS,
  RESOURCE_SLICE_MAX_COUNTERS_PER_COUNTER_SET,
  RESOURCE_SLICE_MAX_DEVICES,
  RESOURCE_SLICE_MAX_DEVICES_WITH_TAINTS_OR_CONSUMES_COUNTERS,
  validateApiLimits,
  validatePoolLimits,
} from './validate-api-limits.js';
