//! The storage a DataVolume gets from the StorageMap: the class, access and volume mode of its disk's datastore.

import type { InventoryVM } from '../adapter.js';
import type { StoragePair } from '../api/mapping.js';

/** The `storage` fields of a DataVolume that come from the StorageMap. */
export interface DiskStorage {
  storageClassName?: string;
  accessModes?: string[];
  volumeMode?: string;
}

/**
 * The storage class, access and volume mode `pairs` give the VM's disk at `diskIndex` (a
 * task's index: the builder gives one task per disk, in the VM's disk order, whatever it
 * names them), matched by its datastore's id or name; `{}` when no
 * pair maps it or the VM has no such disk.
 */
export function diskStorage(
  pairs: readonly StoragePair[] | undefined,
  vm: InventoryVM | undefined,
  diskIndex: number,
): DiskStorage {
  const disk = vm?.disks[diskIndex];
  if (disk === undefined) return {};
  const pair = pairs?.find(
    (p) => p.source.id === disk.datastore || p.source.name === disk.datastore,
  );
  if (pair === undefined) return {};
  const { storageClass, accessMode, volumeMode } = pair.destination;
  return {
    storageClassName: storageClass,
    ...(accessMode && { accessModes: [accessMode] }),
    ...(volumeMode && { volumeMode }),
  };
}
