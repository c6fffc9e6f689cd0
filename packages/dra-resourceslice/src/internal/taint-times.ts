//! Taint `timeAdded` values the apiserver sets, carried from existing slices into desired ones.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Device, V1ResourceSlice } from '@kubernetes/client-node';

/** `desired` with each taint lacking `timeAdded` given that of the same-named existing device's equal taint. */
export function copyTaintTimeAdded(
  from: readonly Wire<V1Device>[],
  to: readonly Wire<V1Device>[],
): Wire<V1Device>[] {
  return to.map((device) => {
    const source = from.find((d) => d.name === device.name);
    if (source === undefined || !device.taints?.some((t) => t.timeAdded == null)) return device;
    const taints = device.taints.map((taint) => {
      if (taint.timeAdded != null) return taint;
      const old = (source.taints ?? []).find(
        (t) => t.key === taint.key && t.value === taint.value && t.effect === taint.effect,
      );
      return old === undefined ? taint : { ...taint, timeAdded: old.timeAdded };
    });
    return { ...device, taints };
  });
}

/** Copies server-set taint times into `desired` (mutated); true when any was copied. */
export function copyServerDefaults(
  desired: Wire<V1ResourceSlice>,
  actual: Wire<V1ResourceSlice>,
): boolean {
  let copied = false;
  const want = desired.spec?.devices ?? [];
  const got = actual.spec?.devices ?? [];
  for (let i = 0; i < want.length && i < got.length; i++) {
    const wantTaints = want[i]?.taints ?? [];
    const gotTaints = got[i]?.taints ?? [];
    for (let e = 0; e < wantTaints.length && e < gotTaints.length; e++) {
      const w = wantTaints[e];
      const g = gotTaints[e];
      if (w && g && w.timeAdded == null && g.timeAdded != null) {
        if (!copied) {
          desired.spec = structuredClone(desired.spec);
          copied = true;
        }
        const taint = desired.spec.devices?.[i]?.taints?.[e];
        if (taint) taint.timeAdded = g.timeAdded;
      }
    }
  }
  return copied;
}
