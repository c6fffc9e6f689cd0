//! The KubeVirt VirtualMachine of a migrated VM, owner of its disk PVCs.

import { isNotFound } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1OwnerReference, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { DestinationVM, InventoryVM } from '../../adapter.js';
import type { VMStatus } from '../../api/plan.js';
import { labelSelector } from '../../labels.js';
import { KUBEVIRT_GROUP, KUBEVIRT_VERSION, type VirtualMachine } from '../crds.js';
import { ANN_DISPLAY_NAME, ANN_ORIGINAL_ID, vmLabels } from '../labels.js';
import { diskPVCs } from '../pvcs.js';
import { determineRunStrategy } from '../run-strategy.js';
import { type DestinationContext, listPvcs, vmPath } from './context.js';
import { deleteDataVolume, listDataVolumes } from './data-volumes.js';
import { vmInterfaces, volumeName } from './vm-interfaces.js';

const API_VERSION = `${KUBEVIRT_GROUP}/${KUBEVIRT_VERSION}`;

/** Whether a VirtualMachine named `name` exists in `namespace`. */
export async function virtualMachineExists(
  c: DestinationContext,
  namespace: string,
  name: string,
): Promise<boolean> {
  try {
    await c.custom.getNamespacedCustomObject({ ...vmPath(namespace), name });
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/**
 * Ensures the VM's VirtualMachine (found by its labels, created if absent), makes it the
 * owner of each disk PVC, then deletes the DataVolumes, which are no longer needed.
 */
export async function ensureVirtualMachine(
  c: DestinationContext,
  vm: VMStatus,
): Promise<DestinationVM> {
  const labels = vmLabels(c.plan, c.options.migrationUID, vm.id ?? '');
  const list = (await c.custom.listNamespacedCustomObject({
    ...vmPath(c.ns),
    labelSelector: labelSelector(labels),
  })) as { items: VirtualMachine[] };
  const pvcs = diskPVCs(await listPvcs(c, vm), vm.id ?? '', c.options.migrationUID);
  let object = list.items[0];
  if (object === undefined) {
    c.wrote();
    object = (await c.custom.createNamespacedCustomObject({
      ...vmPath(c.ns),
      body: virtualMachine(c, vm, labels, pvcs, await c.options.inventory?.findVM(vm)),
    })) as VirtualMachine;
    c.log.info({ vm: vm.id, name: object.metadata.name }, 'created KubeVirt VM');
  }
  const owner: V1OwnerReference = {
    apiVersion: API_VERSION,
    kind: 'VirtualMachine',
    name: object.metadata.name ?? '',
    uid: object.metadata.uid ?? '',
    blockOwnerDeletion: true,
    controller: false,
  };
  for (const pvc of pvcs) {
    if ((pvc.metadata?.ownerReferences ?? []).some((o) => o.uid === owner.uid)) continue;
    c.wrote();
    await c.core.patchNamespacedPersistentVolumeClaim(
      {
        namespace: c.ns,
        name: pvc.metadata?.name ?? '',
        body: { metadata: { ownerReferences: [owner] } },
      }, // an object: a JSON merge patch
    );
  }
  for (const dv of await listDataVolumes(c, vm)) await deleteDataVolume(c, dv);
  return {
    name: object.metadata.name ?? '',
    namespace: c.ns,
    uid: object.metadata.uid ?? '',
  };
}

/**
 * The VirtualMachine to create: named `newName` else the source name, one virtio disk per
 * PVC (volumes named by the volume name template), one interface per mapped NIC (named by
 * the network name template).
 */
function virtualMachine(
  c: DestinationContext,
  vm: VMStatus,
  labels: Record<string, string>,
  pvcs: Wire<V1PersistentVolumeClaim>[],
  inventoryVM: InventoryVM | undefined,
): VirtualMachine {
  const name = vm.newName || vm.name || vm.id || '';
  const annotations: Record<string, string> = {};
  if (vm.newName) {
    annotations[ANN_DISPLAY_NAME] = vm.name ?? '';
    annotations[ANN_ORIGINAL_ID] = vm.id ?? '';
  }
  const volumes = pvcs.map((pvc, i) => ({
    name: volumeName(c, vm, pvc.metadata?.name ?? '', i),
    persistentVolumeClaim: { claimName: pvc.metadata?.name ?? '' },
  }));
  const { interfaces, networks } = vmInterfaces(c, vm, inventoryVM);
  return {
    apiVersion: API_VERSION,
    kind: 'VirtualMachine',
    metadata: {
      name,
      namespace: c.ns,
      labels,
      ...(vm.newName && { annotations }),
    },
    spec: {
      runStrategy: determineRunStrategy(vm, c.plan.spec.targetPowerState),
      template: {
        metadata: {
          labels: { ...c.plan.spec.targetLabels, app: name },
          annotations: {
            'vm.kubevirt.io/flavor': '',
            'vm.kubevirt.io/os': '',
            'vm.kubevirt.io/workload': '',
          },
        },
        spec: {
          domain: {
            devices: {
              disks: volumes.map((v) => ({ name: v.name, disk: { bus: 'virtio' } })),
              ...(interfaces.length > 0 && { interfaces }),
            },
          },
          ...(networks.length > 0 && { networks }),
          volumes,
        },
      },
    },
  };
}
