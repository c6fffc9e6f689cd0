//! What the KubeVirt destination's object modules share: the plan, the target namespace, the API clients and the write count.

import type { Logger } from '@ctrlkit/core';
import { isNotFound } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { Plan, VMStatus } from '../../api/plan.js';
import type { BatchApi, CoreApi, CustomApi } from '../../internal/kube-api.js';
import { labelSelector } from '../../labels.js';
import { DATA_VOLUMES, VIRTUAL_MACHINES } from '../crds.js';
import type { KubeVirtDestinationOptions } from '../kubevirt-destination-options.js';
import { pvcSelector } from '../pvcs.js';

/** The destination's state, handed to each of its object modules. */
export interface DestinationContext {
  readonly options: KubeVirtDestinationOptions;
  readonly plan: Plan;
  /** The plan's target namespace. */
  readonly ns: string;
  readonly core: CoreApi;
  readonly batch: BatchApi;
  readonly custom: CustomApi;
  readonly log: Logger;
  /** Counts one API write (create, patch, delete). */
  wrote(): void;
}

/** Runs a delete (counted as a write), ignoring NotFound. */
export async function ignoreNotFound(
  c: DestinationContext,
  fn: () => Promise<unknown>,
): Promise<void> {
  try {
    c.wrote();
    await fn();
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** The custom-object path of VirtualMachines in `namespace`. */
export function vmPath(namespace: string) {
  return {
    group: VIRTUAL_MACHINES.group,
    version: VIRTUAL_MACHINES.version,
    plural: VIRTUAL_MACHINES.resource,
    namespace,
  };
}

/** The custom-object path of DataVolumes in `namespace`. */
export function dvPath(namespace: string) {
  return {
    group: DATA_VOLUMES.group,
    version: DATA_VOLUMES.version,
    plural: DATA_VOLUMES.resource,
    namespace,
  };
}

/** The PVCs labelled with the VM's id and this Migration's UID. */
export async function listPvcs(
  c: DestinationContext,
  vm: VMStatus,
): Promise<Wire<V1PersistentVolumeClaim>[]> {
  const list = await c.core.listNamespacedPersistentVolumeClaim({
    namespace: c.ns,
    labelSelector: labelSelector(pvcSelector(vm.id ?? '', c.options.migrationUID)),
  });
  return list.items;
}
