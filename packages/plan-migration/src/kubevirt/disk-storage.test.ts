import { describe, expect, it } from 'vitest';
import type { InventoryVM } from '../adapter.js';
import { diskStorage } from './disk-storage.js';

// An OVA VM: its builder names tasks `<appliance>::<file>`, not by disk id; disk ids are datastores.
const vm: InventoryVM = {
  id: 'vm-1',
  name: 'web-01',
  powerState: 'Off',
  networks: [],
  disks: [
    { id: 'disk-a', capacityMiB: 16_384, datastore: 'disk-a', fileName: 'web-01-disk1.vmdk' },
    { id: 'disk-b', capacityMiB: 2_048, datastore: 'disk-b', fileName: 'web-01-disk2.vmdk' },
  ],
};

describe('diskStorage', () => {
  it('gives the disk at the task index the class, access and volume mode of its datastore', () => {
    const pairs = [
      { source: { id: 'disk-a' }, destination: { storageClass: 'fast' } },
      {
        source: { name: 'disk-b' },
        destination: {
          storageClass: 'slow',
          accessMode: 'ReadWriteMany' as const,
          volumeMode: 'Block' as const,
        },
      },
    ];
    expect(diskStorage(pairs, vm, 0)).toEqual({ storageClassName: 'fast' });
    expect(diskStorage(pairs, vm, 1)).toEqual({
      storageClassName: 'slow',
      accessModes: ['ReadWriteMany'],
      volumeMode: 'Block',
    });
  });

  it('is empty without a pair for the datastore, a map, the VM or the disk', () => {
    const pairs = [{ source: { id: 'other' }, destination: { storageClass: 'fast' } }];
    expect(diskStorage(pairs, vm, 0)).toEqual({});
    expect(diskStorage(undefined, vm, 0)).toEqual({});
    expect(diskStorage(pairs, undefined, 0)).toEqual({});
    expect(
      diskStorage([{ source: { id: 'disk-a' }, destination: { storageClass: 'x' } }], vm, 2),
    ).toEqual({});
  });
});
