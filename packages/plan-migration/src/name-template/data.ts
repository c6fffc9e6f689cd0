//! The data each call site renders a name template with (Forklift's `PVCNameTemplateData`, `VolumeNameTemplateData`, `NetworkNameTemplateData`), and which template applies.

import type { InventoryNIC, InventoryVM } from '../adapter.js';
import type { NetworkPair } from '../api/mapping.js';
import type { Plan, PlanVM } from '../api/plan.js';
import type { Ref } from '../api/ref.js';
import { toDNS1123 } from '../migration-runner/vm-name.js';
import { isDNS1123Subdomain } from './dns1123.js';
import type { TemplateData } from './execute.js';

/** The VM a template is rendered for: its `spec.vms[]` entry or its status (which carries `newName`). */
export interface TemplateVM {
  id?: string;
  name?: string;
  targetName?: string;
  newName?: string;
}

/** The three name templates of a Plan and of each of its VMs. */
export type NameTemplateField = 'pvcNameTemplate' | 'volumeNameTemplate' | 'networkNameTemplate';

/** The `spec.vms[]` entry of `vm`: matched by id, or by name when the entry has no id. */
export function planVMOf(plan: Plan, vm: TemplateVM): { entry: PlanVM; index: number } | undefined {
  const index = plan.spec.vms.findIndex((v) =>
    v.id ? v.id === vm.id : v.name !== undefined && v.name === vm.name,
  );
  const entry = plan.spec.vms[index];
  return entry === undefined ? undefined : { entry, index };
}

/**
 * The template that applies to `vm`, as Forklift resolves it: the VM's own (its
 * `spec.vms[]` entry's, else the one its status carries), else the plan's; with the field path it came from (`spec.vms[1].pvcNameTemplate`). Undefined
 * when neither is set (the call site then uses its default name).
 */
export function nameTemplateOf(
  plan: Plan,
  vm: TemplateVM & Partial<Record<NameTemplateField, string>>,
  field: NameTemplateField,
): { template: string; path: string } | undefined {
  const own = planVMOf(plan, vm);
  const vmTemplate = own?.entry[field] || vm[field];
  if (vmTemplate) {
    const at = own === undefined ? `vms[id=${vm.id ?? vm.name ?? ''}]` : `vms[${own.index}]`;
    return { template: vmTemplate, path: `spec.${at}.${field}` };
  }
  const planTemplate = plan.spec[field];
  return planTemplate ? { template: planTemplate, path: `spec.${field}` } : undefined;
}

/**
 * The destination name of the VM: `newName` (set when the migration starts), else the
 * explicit `targetName`, else the source name, made DNS-1123 when it is not (as the
 * migration's Started phase makes it).
 */
export function targetVmName(vm: TemplateVM, sourceName: string): string {
  if (vm.newName) return vm.newName;
  if (vm.targetName) return vm.targetName;
  return isDNS1123Subdomain(sourceName) ? sourceName : toDNS1123(sourceName);
}

/** What {@link pvcNameTemplateData} reads. */
export interface PVCNameTemplateInput {
  /** The plan (its name is `.PlanName`). */
  plan: Plan;
  /** The VM's spec entry or status. */
  vm: TemplateVM;
  /** The VM in the source inventory: its name when the VM is listed by id, and its disks. */
  inventoryVM?: InventoryVM;
  /** The disk's index among the VM's disks (`.DiskIndex`). */
  diskIndex: number;
  /** The source provider's type: `.Shared` and `.FileName` are filled for `vsphere` only. */
  sourceType?: string;
}

/**
 * The data of a PVC name template (Forklift's `PVCNameTemplateData`): `VmName`,
 * `TargetVmName`, `PlanName`, `DiskIndex`, `VmId` for every source; `WinDriveLetter`,
 * `RootDiskIndex`, `Shared`, `FileName` (vSphere), `SourcePVCName`, `SourcePVCNamespace`
 * (OpenShift), `VolumeID`, `SnapshotID` (EC2), `DiskId` (Hyper-V, oVirt), each the zero
 * value where the source does not give it, as in Go. The DataVolume call site and Plan
 * validation both build the data here.
 */
export function pvcNameTemplateData(input: PVCNameTemplateInput): TemplateData {
  const { plan, vm, inventoryVM, diskIndex } = input;
  const vmName = vm.name ?? inventoryVM?.name ?? '';
  const disk = input.sourceType === 'vsphere' ? inventoryVM?.disks[diskIndex] : undefined;
  return {
    typeName: 'PVCNameTemplateData',
    fields: {
      VmName: vmName,
      TargetVmName: targetVmName(vm, vmName),
      PlanName: plan.metadata.name ?? '',
      DiskIndex: diskIndex,
      VmId: vm.id ?? inventoryVM?.id ?? '',
      WinDriveLetter: '',
      RootDiskIndex: 0,
      Shared: disk?.shared ?? false,
      FileName: disk?.fileName ?? '',
      SourcePVCName: '',
      SourcePVCNamespace: '',
      VolumeID: '',
      SnapshotID: '',
      DiskId: '',
    },
  };
}

/** The data of a volume name template (Forklift's `VolumeNameTemplateData`): `PVCName`, `VolumeIndex`. */
export function volumeNameTemplateData(pvcName: string, volumeIndex: number): TemplateData {
  return {
    typeName: 'VolumeNameTemplateData',
    fields: { PVCName: pvcName, VolumeIndex: volumeIndex },
  };
}

/** The `.NetworkType` of a destination network type: `Pod` or `Multus`, as Forklift documents it. */
const NETWORK_TYPE: Record<NetworkPair['destination']['type'], string> = {
  pod: 'Pod',
  multus: 'Multus',
  ignored: 'Ignored',
};

/**
 * The data of a network name template (Forklift's `NetworkNameTemplateData`) for the
 * interface numbered `networkIndex` (counting only mapped, not ignored, interfaces):
 * `NetworkName` and `NetworkNamespace` of the Multus network attachment (empty for the pod
 * network), `NetworkType` (`Pod` or `Multus`), `NetworkIndex`.
 */
export function networkNameTemplateData(
  destination: NetworkPair['destination'],
  networkIndex: number,
): TemplateData {
  const multus = destination.type === 'multus';
  return {
    typeName: 'NetworkNameTemplateData',
    fields: {
      NetworkName: multus ? (destination.name ?? '') : '',
      NetworkNamespace: multus ? (destination.namespace ?? '') : '',
      NetworkType: NETWORK_TYPE[destination.type],
      NetworkIndex: networkIndex,
    },
  };
}

const matches = (ref: Ref, key: string | undefined) =>
  key !== undefined && key !== '' && (ref.id === key || ref.name === key);

/**
 * The NICs of the VM, each with the id of its network: the VM's `networks` list the ids of
 * its NICs' distinct networks in NIC order. A VM without NICs has one per network.
 */
function nicsOf(vm: InventoryVM): Array<InventoryNIC & { networkId?: string }> {
  if (vm.nics === undefined) return vm.networks.map((id) => ({ name: '', mac: '', network: id }));
  const distinct = [...new Set(vm.nics.map((n) => n.network).filter((n) => n !== ''))];
  return vm.nics.map((nic) => {
    const id = vm.networks[distinct.indexOf(nic.network)];
    return id === undefined ? nic : { ...nic, networkId: id };
  });
}

/**
 * The VM's NICs that get an interface on the destination, in order (their position is
 * `.NetworkIndex`), each with the NetworkMap destination of its network: NICs whose network
 * is not mapped, or is mapped to `ignored`, get none.
 */
export function mappedNICs(
  pairs: readonly NetworkPair[],
  vm: InventoryVM,
): Array<{ nic: InventoryNIC; destination: NetworkPair['destination'] }> {
  const out: Array<{ nic: InventoryNIC; destination: NetworkPair['destination'] }> = [];
  for (const nic of nicsOf(vm)) {
    // The NIC's own network first; the id the VM lists for it only when that maps nothing.
    const pair =
      pairs.find((p) => matches(p.source, nic.network)) ??
      pairs.find((p) => matches(p.source, nic.networkId));
    if (pair !== undefined && pair.destination.type !== 'ignored') {
      out.push({ nic, destination: pair.destination });
    }
  }
  return out;
}
