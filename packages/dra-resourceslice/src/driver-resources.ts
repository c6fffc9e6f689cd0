//! The desired state a driver publishes: pools of slices of devices.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1CounterSet, V1Device, V1NodeSelector } from '@kubernetes/client-node';

/** A complete description of all resources synchronized by the controller. */
export interface DriverResources {
  /** The pools of the driver, by pool name. */
  pools: Record<string, Pool>;
}

/** The collection of devices belonging to the same pool. */
export interface Pool {
  /**
   * Where the devices are available. Must not be set when the owner is a Node. Unset and
   * without a Node owner: the devices are available on all nodes.
   */
  nodeSelector?: V1NodeSelector;
  /**
   * Can be left at 0; the controller bumps the generation when it must. Only a higher value
   * than the published one matters: a lower one, negative included, is ignored (as v0.35).
   */
  generation?: number;
  /**
   * All ResourceSlices the driver wants to publish for this pool, one per entry. The driver
   * must keep each within the API limits (see `validateApiLimits`); the controller does
   * not split slices. Publish at least one slice, even an empty one: an empty pool shows
   * that the driver runs and has no devices, which differs from no pool.
   */
  slices: Slice[];
}

/** One ResourceSlice's worth of devices. */
export interface Slice {
  /**
   * The devices of the slice, written with client-node's model names (`_int`, `Date`
   * times) or as JSON ({@link Wire}: `int`, RFC 3339 strings); the controller keeps them
   * in the JSON form.
   */
  devices?: Array<V1Device | Wire<V1Device>>;
  /** Counter sets that devices of this pool consume (partitionable devices). */
  sharedCounters?: V1CounterSet[];
  /** When true, each device names its own node (nodeName, nodeSelector or allNodes). */
  perDeviceNodeSelection?: boolean;
}

/**
 * The object listed as owner of the ResourceSlices. It must be cluster-scoped. For a Node
 * (`apiVersion: 'v1', kind: 'Node'`) the slices also get `spec.nodeName`, and the UID may be
 * left empty: the controller reads the Node once to find it.
 */
export interface Owner {
  apiVersion: string;
  kind: string;
  name: string;
  uid?: string;
}

/** A deep copy of `resources` (Dates stay Dates); undefined or null becomes `{ pools: {} }`. */
export function deepCopyDriverResources(
  resources: DriverResources | undefined | null,
): DriverResources {
  if (resources === undefined || resources === null) return { pools: {} };
  return structuredClone({ pools: resources.pools ?? {} });
}

/** Rounds every taint `timeAdded` to whole seconds, which is all the apiserver stores. */
export function roundTaintTimeAdded(resources: DriverResources): void {
  for (const pool of Object.values(resources.pools)) {
    for (const slice of pool.slices ?? []) {
      for (const device of slice.devices ?? []) {
        for (const taint of device.taints ?? []) {
          if (taint.timeAdded == null) continue;
          const ms = new Date(taint.timeAdded).getTime();
          taint.timeAdded = new Date(Math.round(ms / 1000) * 1000);
        }
      }
    }
  }
}
