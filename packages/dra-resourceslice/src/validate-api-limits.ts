//! Client-side checks of the resource.k8s.io/v1 validation limits (Kubernetes 1.34/1.35).

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Device } from '@kubernetes/client-node';
import type { DriverResources, Pool, Slice } from './driver-resources.js';
import { InvalidDriverResourcesError } from './invalid-driver-resources-error.js';

/** Devices per ResourceSlice: 128. */
export const RESOURCE_SLICE_MAX_DEVICES = 128;
/** Devices per ResourceSlice when any device has taints or consumes counters: 64. */
export const RESOURCE_SLICE_MAX_DEVICES_WITH_TAINTS_OR_CONSUMES_COUNTERS = 64;
/** Counter sets per ResourceSlice: 8. */
export const RESOURCE_SLICE_MAX_COUNTER_SETS = 8;
/** Counters per counter set (and per counter consumption): 32. */
export const RESOURCE_SLICE_MAX_COUNTERS_PER_COUNTER_SET = 32;
/** Attributes and capacities together, per device: 32. */
export const RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE = 32;
/** Taints per device: 16. */
export const DEVICE_MAX_TAINTS = 16;
/** Counter consumptions per device: 2. */
export const DEVICE_MAX_COUNTERS_CONSUMPTIONS = 2;
/** Binding conditions (and binding failure conditions) per device: 4. */
export const DEVICE_MAX_BINDING_CONDITIONS = 4;
/** Length of a string or version attribute value: 64. */
export const DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH = 64;

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const cIdentifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const labelNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const semver =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const taintEffects = new Set(['NoSchedule', 'NoExecute', 'None']);

/** True for a DNS label (RFC 1123, at most 63 characters). */
export function isDnsLabel(value: string): boolean {
  return value.length <= 63 && dnsLabel.test(value);
}

/** True for a DNS subdomain (RFC 1123, at most 253 characters). */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && dnsSubdomain.test(value);
}

function isQualifiedName(value: string): boolean {
  const slash = value.indexOf('/');
  const id = slash < 0 ? value : value.slice(slash + 1);
  if (slash >= 0) {
    const domain = value.slice(0, slash);
    if (domain.length > 63 || !isDnsSubdomain(domain)) return false;
  }
  return id.length <= 32 && cIdentifier.test(id);
}

function isLabelName(value: string): boolean {
  const slash = value.lastIndexOf('/');
  const name = slash < 0 ? value : value.slice(slash + 1);
  if (slash >= 0 && !isDnsSubdomain(value.slice(0, slash))) return false;
  return name.length <= 63 && labelNamePart.test(name);
}

/** Where a slice's devices are: the context the limits depend on. */
export interface ApiLimitsContext {
  /** The owner's node name when the owner is a Node (the slices get `spec.nodeName`). */
  nodeName?: string;
}

/**
 * Checks `resources` against the limits the apiserver enforces on `resource.k8s.io/v1`
 * ResourceSlices, so a driver learns what is wrong, naming the pool, slice, device and
 * field, before any request. Throws an {@link InvalidDriverResourcesError}; returns
 * nothing when all is well. The controller runs it before every create or update.
 */
export function validateApiLimits(
  resources: DriverResources,
  context: ApiLimitsContext = {},
): void {
  for (const [name, pool] of Object.entries(resources.pools)) {
    validatePoolLimits(name, pool, context);
  }
}

/** {@link validateApiLimits} for one pool. */
export function validatePoolLimits(name: string, pool: Pool, context: ApiLimitsContext = {}): void {
  const fail = (field: string, problem: string): never => {
    throw new InvalidDriverResourcesError(
      name,
      field,
      `pool ${JSON.stringify(name)}: ${field === '' ? '' : `${field}: `}${problem}`,
    );
  };
  if (name === '') fail('', 'pool name is required');
  if (name.length > 253) fail('', 'pool name must be at most 253 characters');
  for (const part of name.split('/')) {
    if (!isDnsSubdomain(part))
      fail('', `pool name part ${JSON.stringify(part)} must be a DNS subdomain`);
  }
  // A negative generation is allowed, as in v0.35: only a higher one than the published one matters.
  if (pool.generation !== undefined && !Number.isSafeInteger(pool.generation)) {
    fail('generation', 'must be an integer');
  }
  if (pool.nodeSelector !== undefined) {
    if (context.nodeName)
      fail('nodeSelector', 'must not be set when the owner is a Node (the slices have a nodeName)');
    if ((pool.nodeSelector.nodeSelectorTerms ?? []).length !== 1) {
      fail('nodeSelector.nodeSelectorTerms', 'must have exactly one term');
    }
  }
  for (const [s, slice] of (pool.slices ?? []).entries()) {
    validateSliceLimits(slice, `slices[${s}]`, fail);
  }
}

function validateSliceLimits(
  slice: Slice,
  at: string,
  fail: (field: string, problem: string) => never,
): void {
  const devices = slice.devices ?? [];
  const counterSets = slice.sharedCounters ?? [];
  if (devices.length > 0 && counterSets.length > 0) {
    fail(at, 'devices and sharedCounters are mutually exclusive in one slice');
  }
  if (slice.perDeviceNodeSelection === false) {
    fail(`${at}.perDeviceNodeSelection`, 'must be either unset or set to true');
  }
  // Not checked here: perDeviceNodeSelection beside the nodeName, nodeSelector or allNodes
  // that the controller always sets. The apiserver rejects that pair while the
  // DRAPartitionableDevices feature is on, and drops perDeviceNodeSelection when it is off.
  const perDevice = slice.perDeviceNodeSelection === true;
  const limited = devices.some(
    (d) => (d.taints?.length ?? 0) > 0 || (d.consumesCounters?.length ?? 0) > 0,
  );
  const max = limited
    ? RESOURCE_SLICE_MAX_DEVICES_WITH_TAINTS_OR_CONSUMES_COUNTERS
    : RESOURCE_SLICE_MAX_DEVICES;
  if (devices.length > max) {
    fail(
      `${at}.devices`,
      `has ${devices.length} devices, at most ${max} are allowed${limited ? ' when a device has taints or consumes counters' : ''}`,
    );
  }
  if (counterSets.length > RESOURCE_SLICE_MAX_COUNTER_SETS) {
    fail(
      `${at}.sharedCounters`,
      `has ${counterSets.length} counter sets, at most ${RESOURCE_SLICE_MAX_COUNTER_SETS} are allowed`,
    );
  }
  const setNames = new Set<string>();
  counterSets.forEach((set, c) => {
    const field = `${at}.sharedCounters[${c}]`;
    if (!isDnsLabel(set.name ?? ''))
      fail(`${field}.name`, `${JSON.stringify(set.name)} must be a DNS label`);
    if (setNames.has(set.name))
      fail(`${field}.name`, `duplicate counter set ${JSON.stringify(set.name)}`);
    setNames.add(set.name);
    const count = Object.keys(set.counters ?? {}).length;
    if (count < 1 || count > RESOURCE_SLICE_MAX_COUNTERS_PER_COUNTER_SET) {
      fail(
        `${field}.counters`,
        `has ${count} counters, 1 to ${RESOURCE_SLICE_MAX_COUNTERS_PER_COUNTER_SET} are allowed`,
      );
    }
    for (const counter of Object.keys(set.counters ?? {})) {
      if (!isDnsLabel(counter))
        fail(`${field}.counters`, `counter name ${JSON.stringify(counter)} must be a DNS label`);
    }
  });
  for (const [d, device] of devices.entries()) {
    validateDevice(device, `${at}.devices[${d}]`, perDevice, fail);
  }
}

function validateDevice(
  device: V1Device | Wire<V1Device>,
  at: string,
  perDevice: boolean,
  fail: (field: string, problem: string) => never,
): void {
  const where = `${at} (device ${JSON.stringify(device.name)})`;
  validateDeviceAttributes(device, at, where, fail);
  validateDeviceTaints(device, where, fail);
  validateDeviceCounters(device, where, fail);
  validateDevicePlacement(device, where, perDevice, fail);
}

/** The device's name, and its attributes and capacities: count, keys and values. */
function validateDeviceAttributes(
  device: V1Device | Wire<V1Device>,
  at: string,
  where: string,
  fail: (field: string, problem: string) => never,
): void {
  if (typeof device.name !== 'string' || !isDnsLabel(device.name)) {
    fail(
      `${at}.name`,
      `${JSON.stringify(device.name)} must be a DNS label (at most 63 lower-case alphanumerics or '-')`,
    );
  }
  const attributes = Object.entries(device.attributes ?? {});
  const capacity = Object.keys(device.capacity ?? {});
  if (
    attributes.length + capacity.length >
    RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE
  ) {
    fail(
      where,
      `has ${attributes.length + capacity.length} attributes and capacities, at most ${RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE} are allowed`,
    );
  }
  for (const [key, attribute] of attributes) {
    if (!isQualifiedName(key))
      fail(
        `${where}.attributes`,
        `key ${JSON.stringify(key)} must be [domain/]id with a C identifier id of at most 32 characters`,
      );
    const set = ['bool', 'int', '_int', 'string', 'version'].filter(
      (k) => (attribute as Record<string, unknown>)[k] != null,
    );
    if (set.length !== 1)
      fail(
        `${where}.attributes[${JSON.stringify(key)}]`,
        'exactly one of bool, int, string or version must be set',
      );
    if (attribute.string != null && attribute.string.length > DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH) {
      fail(
        `${where}.attributes[${JSON.stringify(key)}].string`,
        `must be at most ${DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH} characters`,
      );
    }
    if (
      attribute.version != null &&
      (attribute.version.length > DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH ||
        !semver.test(attribute.version))
    ) {
      fail(
        `${where}.attributes[${JSON.stringify(key)}].version`,
        `${JSON.stringify(attribute.version)} must be a semantic version of at most ${DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH} characters`,
      );
    }
  }
  for (const key of capacity) {
    if (!isQualifiedName(key))
      fail(
        `${where}.capacity`,
        `key ${JSON.stringify(key)} must be [domain/]id with a C identifier id of at most 32 characters`,
      );
  }
}

/** The device's taints: count, keys, values and effects. */
function validateDeviceTaints(
  device: V1Device | Wire<V1Device>,
  where: string,
  fail: (field: string, problem: string) => never,
): void {
  const taints = device.taints ?? [];
  if (taints.length > DEVICE_MAX_TAINTS)
    fail(
      `${where}.taints`,
      `has ${taints.length} taints, at most ${DEVICE_MAX_TAINTS} are allowed`,
    );
  taints.forEach((taint, t) => {
    if (!isLabelName(taint.key ?? ''))
      fail(`${where}.taints[${t}].key`, `${JSON.stringify(taint.key)} must be a label name`);
    if (taint.value != null && (taint.value.length > 63 || !labelValue.test(taint.value))) {
      fail(`${where}.taints[${t}].value`, `${JSON.stringify(taint.value)} must be a label value`);
    }
    if (!taintEffects.has(taint.effect))
      fail(
        `${where}.taints[${t}].effect`,
        `${JSON.stringify(taint.effect)} must be NoSchedule, NoExecute or None`,
      );
  });
}

/** The counters the device consumes and its binding conditions. */
function validateDeviceCounters(
  device: V1Device | Wire<V1Device>,
  where: string,
  fail: (field: string, problem: string) => never,
): void {
  const consumes = device.consumesCounters ?? [];
  if (consumes.length > DEVICE_MAX_COUNTERS_CONSUMPTIONS) {
    fail(
      `${where}.consumesCounters`,
      `has ${consumes.length} entries, at most ${DEVICE_MAX_COUNTERS_CONSUMPTIONS} are allowed`,
    );
  }
  const consumed = new Set<string>();
  consumes.forEach((c, i) => {
    if (consumed.has(c.counterSet))
      fail(
        `${where}.consumesCounters[${i}].counterSet`,
        `duplicate counter set ${JSON.stringify(c.counterSet)}`,
      );
    consumed.add(c.counterSet);
    if (Object.keys(c.counters ?? {}).length > RESOURCE_SLICE_MAX_COUNTERS_PER_COUNTER_SET) {
      fail(
        `${where}.consumesCounters[${i}].counters`,
        `at most ${RESOURCE_SLICE_MAX_COUNTERS_PER_COUNTER_SET} counters are allowed`,
      );
    }
  });
  for (const field of ['bindingConditions', 'bindingFailureConditions'] as const) {
    const n = device[field]?.length ?? 0;
    if (n > DEVICE_MAX_BINDING_CONDITIONS)
      fail(
        `${where}.${field}`,
        `has ${n} entries, at most ${DEVICE_MAX_BINDING_CONDITIONS} are allowed`,
      );
  }
}

/** Per-device node selection, and the capacity request policy that needs multiple allocations. */
function validateDevicePlacement(
  device: V1Device | Wire<V1Device>,
  where: string,
  perDevice: boolean,
  fail: (field: string, problem: string) => never,
): void {
  const placement = [
    device.nodeName != null,
    device.nodeSelector != null,
    device.allNodes === true,
  ].filter(Boolean).length;
  if (!perDevice && (placement > 0 || device.allNodes === false)) {
    fail(
      where,
      'nodeName, nodeSelector and allNodes may only be set when the slice has perDeviceNodeSelection: true',
    );
  }
  if (perDevice && placement !== 1)
    fail(
      where,
      'exactly one of nodeName, nodeSelector or allNodes: true must be set (perDeviceNodeSelection)',
    );
  const requestPolicy = Object.values(device.capacity ?? {}).some((c) => c.requestPolicy != null);
  if (requestPolicy && device.allowMultipleAllocations !== true) {
    fail(`${where}.capacity`, 'requestPolicy requires allowMultipleAllocations: true');
  }
}
