//! Devices as the apiserver sends them, whether written with client-node's model names or not.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Device } from '@kubernetes/client-node';
import type { DriverResources, Slice } from '../driver-resources.js';

/**
 * client-node's models rename two JSON fields of the device types (`int` is `_int` in
 * `V1DeviceAttribute`, `default` is `_default` in `V1CapacityRequestPolicy`) and type
 * timestamps as `Date`. The controller compares and sends JSON as the apiserver has it, so
 * desired devices are rewritten in place: the JSON names, and `timeAdded` as RFC 3339.
 */
export function toWireResources(resources: DriverResources): void {
  for (const pool of Object.values(resources.pools)) {
    for (const slice of pool.slices ?? []) {
      for (const device of slice.devices ?? []) toWireDevice(device);
    }
  }
}

function rename(obj: Record<string, unknown>, from: string, to: string): void {
  if (from in obj) {
    if (!(to in obj)) obj[to] = obj[from];
    delete obj[from];
  }
}

function toWireDevice(device: V1Device | Wire<V1Device>): void {
  for (const attribute of Object.values(device.attributes ?? {})) {
    rename(attribute as unknown as Record<string, unknown>, '_int', 'int');
  }
  for (const capacity of Object.values(device.capacity ?? {})) {
    if (capacity.requestPolicy) {
      rename(capacity.requestPolicy as unknown as Record<string, unknown>, '_default', 'default');
    }
  }
  for (const taint of device.taints ?? []) {
    if (taint.timeAdded instanceof Date) {
      (taint as { timeAdded?: unknown }).timeAdded = taint.timeAdded
        .toISOString()
        .replace(/\.000Z$/, 'Z');
    }
  }
}

/** The devices of a desired slice, which {@link toWireResources} rewrote into their JSON form. */
export function wireDevices(slice: Slice): Wire<V1Device>[] | undefined {
  return slice.devices as Wire<V1Device>[] | undefined;
}
