//! The VM's CDI DataVolumes: one per disk (importing or blank), their transfer status, their deletion.

import type { DiskTransfer, InventoryVM } from '../../adapter.js';
import type { Task, VMStatus } from '../../api/plan.js';
import { labelSelector, withoutMigration } from '../../labels.js';
import { nameTemplateOf, pvcNameTemplateData } from '../../name-template/data.js';
import { NameTemplateError, renderPVCName } from '../../name-templates.js';
import { DATA_VOLUMES, type DataVolume } from '../crds.js';
import { diskStorage } from '../disk-storage.js';
import {
  ANN_BIND_IMMEDIATE,
  ANN_DELETE_AFTER_COMPLETION,
  ANN_DISK_INDEX,
  ANN_DISK_SOURCE,
  ANN_TRANSFER_NETWORK,
  vmLabels,
} from '../labels.js';
import { type DestinationContext, dvPath, ignoreNotFound } from './context.js';

const DV_API_VERSION = `${DATA_VOLUMES.group}/${DATA_VOLUMES.version}`;

/** Creates one DataVolume (of `source(task)`) per task that has none yet, found by the VM's labels. */
export async function ensureDataVolumes(
  c: DestinationContext,
  vm: VMStatus,
  tasks: Task[],
  source: (task: Task) => Promise<Record<string, unknown>>,
): Promise<void> {
  const labels = vmLabels(c.plan, c.options.migrationUID, vm.id ?? '');
  const list = (await c.custom.listNamespacedCustomObject({
    ...dvPath(c.ns),
    labelSelector: labelSelector(labels),
  })) as { items: DataVolume[] };
  const have = new Set(list.items.map((dv) => dv.metadata.annotations?.[ANN_DISK_SOURCE]));
  const inventoryVM = await c.options.inventory?.findVM(vm);
  for (const [index, task] of tasks.entries()) {
    if (have.has(task.name)) continue;
    const body: DataVolume = {
      apiVersion: DV_API_VERSION,
      kind: 'DataVolume',
      metadata: {
        namespace: c.ns,
        labels,
        annotations: dvAnnotations(c, labels, task, index),
        ...dvName(c, vm, index, inventoryVM),
      },
      spec: {
        source: await source(task),
        storage: {
          resources: { requests: { storage: `${task.progress.total}Mi` } },
          ...diskStorage(c.options.storageMap?.spec.map, inventoryVM, index),
        },
      },
    };
    c.wrote();
    await c.custom.createNamespacedCustomObject({ ...dvPath(c.ns), body });
  }
}

/** The DataVolume's annotations: the VM's labels, the disk, immediate binding and the transfer network. */
function dvAnnotations(
  c: DestinationContext,
  labels: Record<string, string>,
  task: Task,
  index: number,
): Record<string, string> {
  const annotations: Record<string, string> = {
    ...labels,
    [ANN_DELETE_AFTER_COMPLETION]: 'false',
    [ANN_DISK_SOURCE]: task.name,
    [ANN_DISK_INDEX]: String(index),
  };
  const plan = c.plan;
  const remote = c.options.destinationIsHost === false;
  if (plan.spec.warm === true || remote || c.options.source?.spec.type === 'openshift') {
    annotations[ANN_BIND_IMMEDIATE] = 'true';
  }
  const network = plan.spec.transferNetwork;
  if (network?.name) {
    annotations[ANN_TRANSFER_NETWORK] = JSON.stringify([
      { name: network.name, namespace: network.namespace ?? plan.metadata.namespace },
    ]);
  }
  return annotations;
}

/**
 * The PVC name template (the VM's, else the plan's) rendered as Forklift's builder renders
 * it, with the same data Plan validation renders it with, as `name`; else generateName
 * `<plan>-<vmID>-`. A template that does not render throws {@link NameTemplateError}
 * naming the template's field, the VM and the disk: the DataVolume is not created.
 */
function dvName(
  c: DestinationContext,
  vm: VMStatus,
  diskIndex: number,
  inventoryVM: InventoryVM | undefined,
): { name: string } | { generateName: string } {
  const found = nameTemplateOf(c.plan, vm, 'pvcNameTemplate');
  if (found === undefined)
    return { generateName: `${c.plan.metadata.name}-${vm.id}-`.toLowerCase() };
  const data = pvcNameTemplateData({
    plan: c.plan,
    vm,
    diskIndex,
    ...(inventoryVM && { inventoryVM }),
    ...(c.options.source?.spec.type && { sourceType: c.options.source.spec.type }),
  });
  try {
    return { name: renderPVCName(found.template, data) };
  } catch (error) {
    if (!NameTemplateError.isInstance(error)) throw error;
    throw new NameTemplateError(
      error.reason,
      `${found.path} of VM ${vm.id ?? vm.name ?? ''}, disk ${diskIndex}: ${error.message}`,
    );
  }
}

/** The VM's DataVolumes of any Migration. */
export async function listDataVolumes(c: DestinationContext, vm: VMStatus): Promise<DataVolume[]> {
  const list = (await c.custom.listNamespacedCustomObject({
    ...dvPath(c.ns),
    labelSelector: labelSelector(withoutMigration(vmLabels(c.plan, '', vm.id ?? ''))),
  })) as { items: DataVolume[] };
  return list.items.filter((dv) => dv.metadata.deletionTimestamp === undefined);
}

/** Deletes a DataVolume, ignoring NotFound. */
export async function deleteDataVolume(c: DestinationContext, dv: DataVolume): Promise<void> {
  await ignoreNotFound(c, () =>
    c.custom.deleteNamespacedCustomObject({
      ...dvPath(dv.metadata.namespace ?? c.ns),
      name: dv.metadata.name ?? '',
    }),
  );
}

/** The transfer of each of the VM's disks, read from its DataVolumes' phase and progress. */
export async function dataVolumeTransfers(
  c: DestinationContext,
  vm: VMStatus,
): Promise<DiskTransfer[]> {
  return (await listDataVolumes(c, vm)).map((dv) => {
    const totalMiB = parseMiB((dv.spec.storage as { resources?: Storage } | undefined)?.resources);
    const pct = Number.parseFloat((dv.status?.progress ?? '').replace('%', ''));
    const phase = dv.status?.phase;
    const known = ['ImportScheduled', 'ImportInProgress', 'Succeeded', 'Failed'] as const;
    const transfer: DiskTransfer = {
      disk: dv.metadata.annotations?.[ANN_DISK_SOURCE] ?? dv.metadata.name ?? '',
      phase: known.find((p) => p === phase) ?? 'Pending',
      completedMiB:
        phase === 'Succeeded'
          ? totalMiB
          : Math.floor((Number.isNaN(pct) ? 0 : pct / 100) * totalMiB),
      totalMiB,
    };
    if (phase === 'Failed') transfer.error = failureMessage(dv);
    return transfer;
  });
}

type Storage = { requests?: { storage?: string } };

/** MiB of a `NMi`/`NGi` storage request (0 when absent). */
function parseMiB(resources: Storage | undefined): number {
  const value = resources?.requests?.storage ?? '';
  const m = /^(\d+)(Mi|Gi|Ti)?$/.exec(value);
  if (m === null) return 0;
  const n = Number(m[1]);
  return m[2] === 'Gi' ? n * 1024 : m[2] === 'Ti' ? n * 1024 * 1024 : n;
}

/** The message of a failed DataVolume: its last condition's message, else a generic one. */
function failureMessage(dv: DataVolume): string {
  const conditions = (dv.status?.conditions ?? []) as Array<{ message?: string }>;
  return conditions.findLast((c) => c.message)?.message ?? 'DataVolume import failed.';
}
