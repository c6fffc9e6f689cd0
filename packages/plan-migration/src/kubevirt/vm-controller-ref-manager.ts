//! KubeVirt's VirtualMachineControllerRefManager: claims VirtualMachines for an owning controller.

import {
  ControllerRefManager,
  type ControllerRefManagerOptions,
  type MatchFunc,
} from '@ctrlkit/runtime/controller';
import { KUBEVIRT_GROUP, KUBEVIRT_VERSION, type VirtualMachine } from './crds.js';

/**
 * Manages the controller references of VirtualMachines (KubeVirt's
 * `NewVirtualMachineControllerRefManager`): the runtime's `ControllerRefManager` with
 * KubeVirt's method names and the VirtualMachine's `apiVersion`/`kind` for objects that lack
 * them. Make one per sync of the owner.
 */
export class VirtualMachineControllerRefManager extends ControllerRefManager<VirtualMachine> {
  constructor(options: Omit<ControllerRefManagerOptions, 'objectType'>) {
    super({
      ...options,
      objectType: { apiVersion: `${KUBEVIRT_GROUP}/${KUBEVIRT_VERSION}`, kind: 'VirtualMachine' },
    });
  }

  /** Adopts matching orphans, keeps matching owned VMs, releases owned ones that stopped matching; returns those owned. */
  claimVirtualMachines(
    vms: readonly VirtualMachine[],
    ...filters: MatchFunc<VirtualMachine>[]
  ): Promise<VirtualMachine[]> {
    return this.claimObjects(vms, ...filters);
  }

  /** Releases owned VMs that no longer match; returns those still owned. */
  releaseDetachedVirtualMachines(
    vms: readonly VirtualMachine[],
    ...filters: MatchFunc<VirtualMachine>[]
  ): Promise<VirtualMachine[]> {
    return this.releaseDetachedObjects(vms, ...filters);
  }
}
