//! What a pool sync must do: which existing slices are obsolete, which match a desired slice, which changed, the new generation.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ResourcePool, V1ResourceSlice } from '@kubernetes/client-node';
import { devicesDeepEqual } from '../devices-deep-equal.js';
import type { Pool, Slice } from '../driver-resources.js';
import { semanticEqual } from './semantic-equal.js';
import { wireDevices } from './wire.js';

/** The writes a pool needs, decided from its existing slices (upstream's syncPool, before any call). */
export interface PoolPlan {
  /** Existing slices to delete: of an older generation, or matching no desired slice. */
  obsolete: Wire<V1ResourceSlice>[];
  /** Index of a desired slice -> the existing slice that becomes it. */
  matched: Map<number, Wire<V1ResourceSlice>>;
  /** Indexes of matched desired slices whose existing slice differs. */
  changed: Set<number>;
  /** How many desired slices have no existing slice (to create). */
  numNew: number;
  /** The pool every written slice gets, with the new generation. */
  desiredPool: V1ResourcePool;
  /** Whether the slices are for all nodes (no node selector and no node). */
  desiredAllNodes: boolean;
  /** Whether the generation went up, so that every matched slice is written. */
  bumped: boolean;
}

/** Plans the sync of `pool` over its existing `slices` (sorted by name). */
export function planPool(
  poolName: string,
  pool: Pool,
  slices: readonly Wire<V1ResourceSlice>[],
  nodeName: string,
): PoolPlan {
  let generation = 0;
  for (const slice of slices) generation = Math.max(generation, slice.spec?.pool?.generation ?? 0);
  const obsolete: Wire<V1ResourceSlice>[] = [];
  const current: Wire<V1ResourceSlice>[] = [];
  for (const slice of slices) {
    if ((slice.spec?.pool?.generation ?? 0) < generation) obsolete.push(slice);
    else current.push(slice);
  }

  const desiredSlices = pool.slices ?? [];
  const matched = new Map<number, Wire<V1ResourceSlice>>();
  if (current.length === 1 && desiredSlices.length === 1) {
    matched.set(0, current[0] as Wire<V1ResourceSlice>);
  } else {
    for (const slice of current) {
      const index = desiredSlices.findIndex((d, i) => !matched.has(i) && sameSlice(slice, d));
      if (index >= 0) matched.set(index, slice);
      else obsolete.push(slice);
    }
  }

  const numNew = desiredSlices.length - matched.size;
  const desiredPool: V1ResourcePool = {
    name: poolName,
    generation,
    resourceSliceCount: desiredSlices.length,
  };
  const desiredAllNodes = pool.nodeSelector === undefined && nodeName === '';
  const changed = changedSlices(pool, matched, desiredPool, desiredAllNodes);

  let bumped = false;
  if ((pool.generation ?? 0) > generation) {
    generation = pool.generation ?? 0;
    bumped = true;
  } else if (!(numNew === 0 && changed.size <= 1)) {
    generation++;
    bumped = true;
  }
  desiredPool.generation = generation;
  return { obsolete, matched, changed, numNew, desiredPool, desiredAllNodes, bumped };
}

/** The indexes of matched slices whose pool, node selection, devices or counters differ. */
function changedSlices(
  pool: Pool,
  matched: ReadonlyMap<number, Wire<V1ResourceSlice>>,
  desiredPool: V1ResourcePool,
  desiredAllNodes: boolean,
): Set<number> {
  const desiredSlices = pool.slices ?? [];
  const changed = new Set<number>();
  for (const [i, slice] of matched) {
    const desired = desiredSlices[i] as Slice;
    const spec = slice.spec;
    if (
      !semanticEqual(spec?.pool, desiredPool) ||
      !semanticEqual(spec?.nodeSelector, pool.nodeSelector) ||
      (spec?.allNodes ?? false) !== desiredAllNodes ||
      !devicesDeepEqual(spec?.devices, wireDevices(desired)) ||
      !semanticEqual(spec?.sharedCounters, desired.sharedCounters) ||
      (spec?.perDeviceNodeSelection ?? null) !== (desired.perDeviceNodeSelection ?? null)
    ) {
      changed.add(i);
    }
  }
  return changed;
}

/** Existing and desired slices with the same number of devices and the same device names. */
function sameSlice(existing: Wire<V1ResourceSlice>, desired: Slice): boolean {
  const have = existing.spec?.devices ?? [];
  const want = desired.devices ?? [];
  if (have.length !== want.length) return false;
  const names = new Set(have.map((d) => d.name));
  return want.every((d) => names.has(d.name));
}
