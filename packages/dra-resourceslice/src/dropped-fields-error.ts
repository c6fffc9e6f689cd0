//! The error reported when the apiserver dropped fields of a published slice.

import { CtrlkitError } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ResourceSlice } from '@kubernetes/client-node';

/**
 * Reported through `Options.errorHandler` when a slice could not be published exactly as
 * the driver wanted, because the apiserver dropped fields of features it has disabled. The
 * controller adopts what was stored (no update loop) until the next `update()`.
 */
export class DroppedFieldsError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'DroppedFields' as const;
  readonly poolName: string;
  /** Index of the slice within the pool's `slices`. */
  readonly sliceIndex: number;
  /** The slice as sent. */
  readonly desiredSlice: V1ResourceSlice | Wire<V1ResourceSlice>;
  /** The slice as the apiserver stored it. */
  readonly actualSlice: V1ResourceSlice | Wire<V1ResourceSlice>;

  constructor(
    poolName: string,
    sliceIndex: number,
    desiredSlice: V1ResourceSlice | Wire<V1ResourceSlice>,
    actualSlice: V1ResourceSlice | Wire<V1ResourceSlice>,
  ) {
    super('');
    this.poolName = poolName;
    this.sliceIndex = sliceIndex;
    this.desiredSlice = desiredSlice;
    this.actualSlice = actualSlice;
    const disabled = this.disabledFeatures();
    this.message = `pool ${JSON.stringify(poolName)}, slice #${sliceIndex}: some fields were dropped by the apiserver, probably because these features are disabled: ${disabled.length > 0 ? disabled.join(' ') : 'unknown'}`;
  }

  /**
   * The feature gates that are probably off, in this order: `DRADeviceTaints`,
   * `DRAPartitionableDevices`, `DRADeviceBindingConditions`, `DRAConsumableCapacity`.
   */
  disabledFeatures(): string[] {
    const disabled: string[] = [];
    const desired = this.desiredSlice.spec;
    const actual = this.actualSlice.spec;
    const desiredDevices = desired?.devices ?? [];
    const actualDevices = actual?.devices ?? [];
    const n = Math.min(desiredDevices.length, actualDevices.length);
    const anyDevice = (
      differs: (want: (typeof desiredDevices)[0], got: (typeof actualDevices)[0]) => boolean,
    ) => {
      for (let i = 0; i < n; i++) {
        if (
          differs(
            desiredDevices[i] as (typeof desiredDevices)[0],
            actualDevices[i] as (typeof actualDevices)[0],
          )
        )
          return true;
      }
      return false;
    };
    if (anyDevice((w, g) => (w.taints?.length ?? 0) > (g.taints?.length ?? 0))) {
      disabled.push('DRADeviceTaints');
    }
    if (
      (desired?.perDeviceNodeSelection === true && actual?.perDeviceNodeSelection !== true) ||
      (desired?.sharedCounters?.length ?? 0) > (actual?.sharedCounters?.length ?? 0) ||
      anyDevice((w, g) => (w.consumesCounters?.length ?? 0) !== (g.consumesCounters?.length ?? 0))
    ) {
      disabled.push('DRAPartitionableDevices');
    }
    if (
      anyDevice(
        (w, g) =>
          (w.bindingConditions?.length ?? 0) !== (g.bindingConditions?.length ?? 0) ||
          (w.bindingFailureConditions?.length ?? 0) !== (g.bindingFailureConditions?.length ?? 0),
      )
    ) {
      disabled.push('DRADeviceBindingConditions');
    }
    if (
      anyDevice((w, g) => w.allowMultipleAllocations != null && g.allowMultipleAllocations == null)
    ) {
      disabled.push('DRAConsumableCapacity');
    }
    return disabled;
  }
}
