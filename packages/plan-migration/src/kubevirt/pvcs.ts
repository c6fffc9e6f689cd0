//! Which PersistentVolumeClaims are a VM's disks (Forklift's `getPVCs`).

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { LABEL_MIGRATION, LABEL_VM_ID } from '../labels.js';
import { ANN_DISK_INDEX, ANN_DISK_SOURCE } from './labels.js';

/** The label selector of a VM's disk PVCs of one Migration: `vmID` and `migration`. */
export function pvcSelector(vmID: string, migrationUID: string): Record<string, string> {
  return { [LABEL_VM_ID]: vmID, [LABEL_MIGRATION]: migrationUID };
}

/**
 * The VM's disks among `pvcs`: those labelled with the VM's id and the Migration's UID,
 * except volume populator `prime-` PVCs and PVCs without a disk-source annotation, ordered
 * by their disk index (PVCs without one first).
 */
export function diskPVCs(
  pvcs: readonly Wire<V1PersistentVolumeClaim>[],
  vmID: string,
  migrationUID: string,
): Wire<V1PersistentVolumeClaim>[] {
  const selector = pvcSelector(vmID, migrationUID);
  return pvcs
    .filter((pvc) => Object.entries(selector).every(([k, v]) => pvc.metadata?.labels?.[k] === v))
    .filter((pvc) => !(pvc.metadata?.name ?? '').startsWith('prime-'))
    .filter((pvc) => (pvc.metadata?.annotations?.[ANN_DISK_SOURCE] ?? '').trim() !== '')
    .sort((a, b) => diskIndex(a) - diskIndex(b));
}

function diskIndex(pvc: Wire<V1PersistentVolumeClaim>): number {
  const n = Number.parseInt(pvc.metadata?.annotations?.[ANN_DISK_INDEX] ?? '', 10);
  return Number.isNaN(n) ? -1 : n;
}
