//! Inventory ids exactly as Forklift's OVA provider makes them: the VirtualSystem id when it is a UUID, else a sha256 of the gob-encoded object.

import { createHash } from 'node:crypto';
import { GobRegistry, type GobSlice, type GobStruct, type GobValue } from './internal/gob.js';

// Forklift's cmd/provider-common/ovf types, as gob sees them (exported fields, in order).
const DEVICE: GobStruct = { kind: 'struct', name: 'Device', fields: [['Kind', 'string']] };
const CONF: GobStruct = { kind: 'struct', name: 'Conf', fields: [['Value', 'string']] };
const NIC: GobStruct = {
  kind: 'struct',
  name: 'NIC',
  fields: [
    ['Name', 'string'],
    ['MAC', 'string'],
    ['Network', 'string'],
    ['Config', slice('[]ovf.Conf', CONF)],
  ],
};
const VM_DISK: GobStruct = {
  kind: 'struct',
  name: 'VmDisk',
  fields: [
    ['ID', 'string'],
    ['Name', 'string'],
    ['FilePath', 'string'],
    ['Capacity', 'int'],
    ['CapacityAllocationUnits', 'string'],
    ['DiskId', 'string'],
    ['FileRef', 'string'],
    ['Format', 'string'],
    ['PopulatedSize', 'int'],
  ],
};
const VM_NETWORK: GobStruct = {
  kind: 'struct',
  name: 'VmNetwork',
  fields: [
    ['Name', 'string'],
    ['Description', 'string'],
    ['ID', 'string'],
  ],
};
const VM: GobStruct = {
  kind: 'struct',
  name: 'VM',
  fields: [
    ['Name', 'string'],
    ['OvfPath', 'string'],
    ['ExportSource', 'string'],
    ['OsType', 'string'],
    ['RevisionValidated', 'int'],
    ['PolicyVersion', 'int'],
    ['UUID', 'string'],
    ['Firmware', 'string'],
    ['SecureBoot', 'bool'],
    ['CpuAffinity', slice('[]int32', 'int')],
    ['CpuHotAddEnabled', 'bool'],
    ['CpuHotRemoveEnabled', 'bool'],
    ['MemoryHotAddEnabled', 'bool'],
    ['FaultToleranceEnabled', 'bool'],
    ['CpuCount', 'int'],
    ['CoresPerSocket', 'int'],
    ['MemoryMB', 'int'],
    ['MemoryUnits', 'string'],
    ['CpuUnits', 'string'],
    ['BalloonedMemory', 'int'],
    ['IpAddress', 'string'],
    ['NumaNodeAffinity', slice('[]string', 'string')],
    ['StorageUsed', 'int'],
    ['ChangeTrackingEnabled', 'bool'],
    ['Devices', slice('[]ovf.Device', DEVICE)],
    ['NICs', slice('[]ovf.NIC', NIC)],
    ['Disks', slice('[]ovf.VmDisk', VM_DISK)],
    ['Networks', slice('[]ovf.VmNetwork', VM_NETWORK)],
  ],
};

function slice(name: string, elem: GobSlice['elem']): GobSlice {
  return { kind: 'slice', name, elem };
}

// Upstream's gob type ids are process-global, handed out on first use. Its scan hashes a disk
// before the first VM (each VM's disks are hashed first), so `VmDisk` is the first user type
// and the VM's types follow: that order is replayed here.
const registry = new GobRegistry();
registry.register(VM_DISK);
registry.register(VM);

/** A disk as upstream's `ovf.VmDisk` holds it when hashing (its `ID` still empty). */
export interface UpstreamDisk {
  /** The file's `href` (upstream: the `References/File` at the disk's position). */
  name: string;
  /** The `.ova` path, or the `.ovf`'s folder with a trailing `/`. */
  filePath: string;
  /** `ovf:capacity` as written (in `capacityAllocationUnits`). */
  capacity: bigint;
  capacityAllocationUnits: string;
  diskId: string;
  fileRef: string;
  format: string;
  populatedSize: bigint;
}

/** A network as upstream's `ovf.VmNetwork` holds it. */
export interface UpstreamNetwork {
  name: string;
  description: string;
}

/** A VM as upstream's `ovf.VM` holds it when hashing (disks and networks with their ids). */
export interface UpstreamVM {
  name: string;
  ovfPath: string;
  exportSource: string;
  osType: string;
  firmware: string;
  secureBoot: boolean;
  cpuHotAddEnabled: boolean;
  cpuHotRemoveEnabled: boolean;
  memoryHotAddEnabled: boolean;
  cpuCount: bigint;
  coresPerSocket: bigint;
  /** The memory item's `VirtualQuantity` as written (upstream ignores its units). */
  memoryMB: bigint;
  memoryUnits: string;
  cpuUnits: string;
  devices: string[];
  nics: Array<{ name: string; mac: string; network: string }>;
  disks: UpstreamDisk[];
  networks: UpstreamNetwork[];
}

/** The first 36 hex characters of the sha256 of the gob encoding (upstream's `UUIDMap.GetUUID`). */
function hashId(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 36);
}

/** A network's id: the hash of its name. */
export function networkId(name: string): string {
  return hashId(registry.encode('string', name));
}

/** A disk's id: the hash of the disk as upstream holds it. */
export function diskId(disk: UpstreamDisk): string {
  return hashId(registry.encode(VM_DISK, diskValue(disk, '')));
}

/** A VM's id: `systemId` when it is a valid UUID, else the hash of the VM as upstream holds it. */
export function vmId(systemId: string, vm: UpstreamVM): string {
  if (isValidUUID(systemId)) return systemId;
  const value: GobValue = {
    Name: vm.name,
    OvfPath: vm.ovfPath,
    ExportSource: vm.exportSource,
    OsType: vm.osType,
    Firmware: vm.firmware,
    SecureBoot: vm.secureBoot,
    CpuHotAddEnabled: vm.cpuHotAddEnabled,
    CpuHotRemoveEnabled: vm.cpuHotRemoveEnabled,
    MemoryHotAddEnabled: vm.memoryHotAddEnabled,
    CpuCount: vm.cpuCount,
    CoresPerSocket: vm.coresPerSocket,
    MemoryMB: vm.memoryMB,
    MemoryUnits: vm.memoryUnits,
    CpuUnits: vm.cpuUnits,
    Devices: vm.devices.map((kind) => ({ Kind: kind })),
    NICs: vm.nics.map((n) => ({ Name: n.name, MAC: n.mac, Network: n.network })),
    Disks: vm.disks.map((d) => diskValue(d, diskId(d))),
    Networks: vm.networks.map((n) => ({
      Name: n.name,
      Description: n.description,
      ID: networkId(n.name),
    })),
  };
  return hashId(registry.encode(VM, value));
}

function diskValue(disk: UpstreamDisk, id: string): GobValue {
  return {
    ID: id,
    Name: disk.name,
    FilePath: disk.filePath,
    Capacity: disk.capacity,
    CapacityAllocationUnits: disk.capacityAllocationUnits,
    DiskId: disk.diskId,
    FileRef: disk.fileRef,
    Format: disk.format,
    PopulatedSize: disk.populatedSize,
  };
}

const HEX32 = /^[0-9a-fA-F]{32}$/;

/**
 * Whether `id` parses as a UUID the way github.com/google/uuid's `Parse` accepts it:
 * `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, optionally as `urn:uuid:…` or in braces, or 32 hex digits.
 */
export function isValidUUID(id: string): boolean {
  let s = id;
  if (s.length === 45) {
    if (s.slice(0, 9).toLowerCase() !== 'urn:uuid:') return false;
    s = s.slice(9);
  } else if (s.length === 38) {
    if (s[0] !== '{' || s[37] !== '}') return false;
    s = s.slice(1, 37);
  } else if (s.length === 32) {
    return HEX32.test(s);
  }
  if (s.length !== 36) return false;
  if (s[8] !== '-' || s[13] !== '-' || s[18] !== '-' || s[23] !== '-') return false;
  return HEX32.test(s.replaceAll('-', ''));
}
