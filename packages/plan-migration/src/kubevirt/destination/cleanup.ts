//! Deleting what the destination created: a VM's objects after its migration, a deleted plan's orphans.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { VMStatus } from '../../api/plan.js';
import { ConditionType } from '../../condition-types.js';
import { True } from '../../conditions.js';
import {
  LABEL_PLAN,
  LABEL_PLAN_NAME,
  LABEL_PLAN_NAMESPACE,
  LABEL_VM_ID,
  labelSelector,
  withoutMigration,
} from '../../labels.js';
import { DATA_VOLUMES, type DataVolume, type VirtualMachine } from '../crds.js';
import {
  LABEL_KUBEVIRT_RESOURCE,
  OVA_PVC_LABEL,
  RESOURCE_HOOK_CONFIG,
  vmLabels,
} from '../labels.js';
import { type DestinationContext, dvPath, ignoreNotFound, vmPath } from './context.js';
import { deleteDataVolume, listDataVolumes } from './data-volumes.js';

/**
 * Deletes what was created for the VM: the conversion pod (unless the VM succeeded: its
 * logs stay), Secrets, ConfigMaps, hook Jobs and their ConfigMaps, the OVA store claim; with
 * `deleteVM` also the VirtualMachine (foreground) and the DataVolumes.
 */
export async function cleanupVM(
  c: DestinationContext,
  vm: VMStatus,
  options: { deleteVM: boolean },
): Promise<void> {
  const selector = labelSelector(withoutMigration(vmLabels(c.plan, '', vm.id ?? '')));
  const ns = c.ns;
  if (options.deleteVM) await deleteVirtualMachines(c, vm, selector);
  const succeeded = (vm.conditions ?? []).some(
    (cnd) => cnd.type === ConditionType.Succeeded && cnd.status === True,
  );
  if (!succeeded) {
    const pods = await c.core.listNamespacedPod({ namespace: ns, labelSelector: selector });
    for (const p of pods.items) {
      await ignoreNotFound(c, () =>
        c.core.deleteNamespacedPod({ namespace: ns, name: p.metadata?.name ?? '' }),
      );
    }
  }
  const secrets = await c.core.listNamespacedSecret({ namespace: ns, labelSelector: selector });
  for (const s of secrets.items) {
    await ignoreNotFound(c, () =>
      c.core.deleteNamespacedSecret({ namespace: ns, name: s.metadata?.name ?? '' }),
    );
  }
  const maps = await c.core.listNamespacedConfigMap({ namespace: ns, labelSelector: selector });
  for (const m of maps.items) {
    await ignoreNotFound(c, () =>
      c.core.deleteNamespacedConfigMap({ namespace: ns, name: m.metadata?.name ?? '' }),
    );
  }
  await deleteHookJobs(c, vm);
  await deleteOvaStoreClaims(c, vm);
}

/** Deletes the VM's VirtualMachines (foreground) and DataVolumes. */
async function deleteVirtualMachines(
  c: DestinationContext,
  vm: VMStatus,
  selector: string,
): Promise<void> {
  const vms = (await c.custom.listNamespacedCustomObject({
    ...vmPath(c.ns),
    labelSelector: selector,
  })) as { items: VirtualMachine[] };
  for (const v of vms.items) {
    await ignoreNotFound(c, () =>
      c.custom.deleteNamespacedCustomObject({
        ...vmPath(c.ns),
        name: v.metadata.name ?? '',
        propagationPolicy: 'Foreground',
      }),
    );
  }
  for (const dv of await listDataVolumes(c, vm)) await deleteDataVolume(c, dv);
}

/** Deletes the VM's hook Jobs and their ConfigMaps (in the plan's namespace). */
async function deleteHookJobs(c: DestinationContext, vm: VMStatus): Promise<void> {
  const namespace = c.plan.metadata.namespace ?? '';
  const selector = labelSelector({
    [LABEL_PLAN]: c.plan.metadata.uid ?? '',
    [LABEL_VM_ID]: vm.id ?? '',
    [LABEL_KUBEVIRT_RESOURCE]: RESOURCE_HOOK_CONFIG,
  });
  const jobs = await c.batch.listNamespacedJob({ namespace, labelSelector: selector });
  for (const j of jobs.items) {
    await ignoreNotFound(c, () =>
      c.batch.deleteNamespacedJob({
        namespace,
        name: j.metadata?.name ?? '',
        propagationPolicy: 'Background',
      }),
    );
  }
  const maps = await c.core.listNamespacedConfigMap({ namespace, labelSelector: selector });
  for (const m of maps.items) {
    await ignoreNotFound(c, () =>
      c.core.deleteNamespacedConfigMap({ namespace, name: m.metadata?.name ?? '' }),
    );
  }
}

/** Deletes the VM's OVA store claims. */
async function deleteOvaStoreClaims(c: DestinationContext, vm: VMStatus): Promise<void> {
  const store = await c.core.listNamespacedPersistentVolumeClaim({
    namespace: c.ns,
    labelSelector: labelSelector({
      [LABEL_PLAN]: c.plan.metadata.uid ?? '',
      [LABEL_VM_ID]: vm.id ?? '',
      ova: OVA_PVC_LABEL,
    }),
  });
  for (const claim of store.items) {
    await ignoreNotFound(c, () =>
      c.core.deleteNamespacedPersistentVolumeClaim({
        namespace: c.ns,
        name: claim.metadata?.name ?? '',
      }),
    );
  }
}

/**
 * Deletes the DataVolumes, PVCs, Pods, Secrets, ConfigMaps, Jobs and PVs a deleted plan left
 * in any namespace (found by `plan-name` and `plan-namespace`), except those a
 * VirtualMachine owns. Returns how many it deleted.
 */
export async function deleteOrphans(
  c: DestinationContext,
  planNamespace: string,
  planName: string,
): Promise<number> {
  const selector = labelSelector({
    [LABEL_PLAN_NAME]: planName,
    [LABEL_PLAN_NAMESPACE]: planNamespace,
  });
  const vmOwned = (meta: Wire<V1ObjectMeta> | undefined) =>
    (meta?.ownerReferences ?? []).some((o) => o.kind === 'VirtualMachine');
  let deleted = 0;
  const sweep = async <T extends { metadata?: Wire<V1ObjectMeta> }>(
    items: T[],
    remove: (name: string, namespace: string) => Promise<unknown>,
  ) => {
    for (const item of items) {
      if (vmOwned(item.metadata)) continue;
      await ignoreNotFound(c, () =>
        remove(item.metadata?.name ?? '', item.metadata?.namespace ?? ''),
      );
      deleted++;
    }
  };
  const dvs = (await c.custom.listClusterCustomObject({
    group: DATA_VOLUMES.group,
    version: DATA_VOLUMES.version,
    plural: DATA_VOLUMES.resource,
    labelSelector: selector,
  })) as { items: DataVolume[] };
  await sweep(dvs.items, (name, namespace) =>
    c.custom.deleteNamespacedCustomObject({ ...dvPath(namespace), name }),
  );
  const { core, batch } = c;
  await sweep(
    (await core.listPersistentVolumeClaimForAllNamespaces({ labelSelector: selector })).items,
    (name, namespace) => core.deleteNamespacedPersistentVolumeClaim({ name, namespace }),
  );
  await sweep(
    (await core.listPodForAllNamespaces({ labelSelector: selector })).items,
    (name, namespace) => core.deleteNamespacedPod({ name, namespace }),
  );
  await sweep(
    (await core.listSecretForAllNamespaces({ labelSelector: selector })).items,
    (name, namespace) => core.deleteNamespacedSecret({ name, namespace }),
  );
  await sweep(
    (await core.listConfigMapForAllNamespaces({ labelSelector: selector })).items,
    (name, namespace) => core.deleteNamespacedConfigMap({ name, namespace }),
  );
  await sweep(
    (await batch.listJobForAllNamespaces({ labelSelector: selector })).items,
    (name, namespace) =>
      batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' }),
  );
  await sweep((await core.listPersistentVolume({ labelSelector: selector })).items, (name) =>
    core.deletePersistentVolume({ name }),
  );
  return deleted;
}
