/**
 * `@ctrlkit/dra-resourceslice`: publishes a DRA driver's devices as `resource.k8s.io/v1`
 * ResourceSlices and keeps them in step with the driver's desired pools, with the fewest
 * API calls (`k8s.io/dynamic-resource-allocation/resourceslice` v0.35). One concept, one
 * root:
 *
 * - **The controller**: {@link startController} ({@link Options}) gives a
 *   {@link Controller}: `update(resources)`, `getStats()`, `stop()`.
 * - **What to publish**: {@link DriverResources} → {@link Pool} → {@link Slice} (devices),
 *   owned by an {@link Owner} (a Node, or the driver's object).
 * - **The cluster**: a `KubeConfig`, or a {@link KubeClient} of your own
 *   ({@link newKubeClient} builds the default one).
 * - **Checks**: the API's limits ({@link validateApiLimits}, {@link validatePoolLimits} and
 *   their constants), {@link devicesDeepEqual}.
 * - **Errors**: {@link InvalidDriverResourcesError}, {@link DroppedFieldsError},
 *   {@link ResourceSliceApiError}.
 *
 * A first program:
 * ```ts
 * import { startController } from '@ctrlkit/dra-resourceslice';
 *
 * const controller = await startController({
 *   driverName: 'gpu.example.com',
 *   kubeClient: kubeConfig,
 *   owner: { apiVersion: 'v1', kind: 'Node', name: nodeName },
 *   resources: { pools: { [nodeName]: { slices: [{ devices: [{ name: 'gpu-0' }] }] } } },
 * });
 * controller.update({ pools: { [nodeName]: { slices: [{ devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }] }] } } });
 * await controller.stop(); // the slices stay, as upstream
 * ```
 *
 * @packageDocumentation
 */

export type { DeletePreconditions, KubeClient } from './adapter.js';

export { Controller, POOL_NAME_INDEX, startController } from './controller.js';
export {
  DEFAULT_MUTATION_CACHE_TTL_MS,
  DEFAULT_SYNC_DELAY_MS,
  type ErrorHandler,
  type Options,
  QUEUE_NAME,
} from './controller-options.js';
export type { Stats } from './controller-stats.js';
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
export { newKubeClient } from './kube-client.js';
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
