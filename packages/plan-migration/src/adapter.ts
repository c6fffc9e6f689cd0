//! The seams where a source provider, a destination, a hook runner and a provider inspector plug in (Forklift's plan/adapter and migrator).

import type { Client as ApiClient } from '@ctrlkit/runtime/client';
import type { NetworkMap, StorageMap } from './api/mapping.js';
import type { HookRef, Plan, PlanVM, Step, Task, VMStatus } from './api/plan.js';
import type { Provider } from './api/provider.js';
import type { Ref } from './api/ref.js';
import type { NewCondition } from './conditions.js';
import type { ItineraryView } from './itinerary.js';

/** A disk of a VM in a source provider's inventory. */
export interface InventoryDisk {
  /** Unique within the VM. */
  id: string;
  /** Capacity in MiB (a task's total). */
  capacityMiB: number;
  /** The datastore (storage) id the disk lives on; must be in the StorageMap. */
  datastore: string;
  /** Shared between VMs (vSphere multi-writer). */
  shared?: boolean;
  /** The disk's file (OVA: the `References/File` href, e.g. `disk1.vmdk`). */
  fileName?: string;
  /** The disk image format (OVA: the `DiskSection/Disk` `ovf:format` URI). */
  format?: string;
}

/** A network interface of a VM in a source provider's inventory. */
export interface InventoryNIC {
  /** The NIC's name (OVA: the hardware item's `ElementName`). */
  name: string;
  /** Its MAC address; '' when the source does not say. */
  mac: string;
  /** The name of the network it connects to. */
  network: string;
}

/** A VM in a source provider's inventory. */
export interface InventoryVM {
  id: string;
  name: string;
  powerState: 'On' | 'Off';
  disks: InventoryDisk[];
  /** Network ids; each must be in the NetworkMap. */
  networks: string[];
  /** Guest OS, e.g. `windows` or `rhel9`. */
  guestOS?: string;
  /** Whether changed block tracking is on (needed for warm). */
  changedBlockTracking?: boolean;
  /** Whether the VM has snapshots (blocks warm on vSphere). */
  hasSnapshots?: boolean;
  /** Virtual CPUs. */
  cpuCount?: number;
  /** Memory in MiB. */
  memoryMiB?: number;
  /** Network interfaces. */
  nics?: InventoryNIC[];
  /** The source's OS type identifier (OVA: `OperatingSystemSection` `ovf:osType`, e.g. `rhel8_64Guest`). */
  osType?: string;
  /** Who exported the VM (OVA: `VMware`, `VirtualBox`, `Xen`, `oVirt` or `Unknown`). */
  exportSource?: string;
  /** OVA: the `.ova` archive or `.ovf` file the VM was read from. */
  ovaPath?: string;
}

/** The source provider's inventory (Forklift's web client `Inventory`). */
export interface Inventory {
  /** The VM `ref` names (by id first, then name), or undefined. */
  findVM(ref: Ref): Promise<InventoryVM | undefined>;
  /** Every VM, for listing and lookup by name. */
  listVMs(): Promise<InventoryVM[]>;
}

/** The state of one disk's transfer, as the transfer's status reports it (a DataVolume's, upstream). */
export interface DiskTransfer {
  disk: string;
  /** `Pending`, `ImportScheduled`, `ImportInProgress`, `Succeeded` or `Failed`. */
  phase: 'Pending' | 'ImportScheduled' | 'ImportInProgress' | 'Succeeded' | 'Failed';
  /** MiB copied. */
  completedMiB: number;
  totalMiB: number;
  /** Why it failed (with phase `Failed`). */
  error?: string;
}

/** Builds what a VM's migration needs (Forklift's `adapter.Builder`). */
export interface Builder {
  /**
   * One task per disk, in the VM's disk order, `progress.total` = capacity in MiB, annotated
   * `unit: MB`; as upstream's builders, no description and no phase (the transfer sets it).
   */
  tasks(vm: Ref): Promise<Task[]>;
  /**
   * The environment of the VM's guest conversion (virt-v2v) pod, for sources whose disks
   * virt-v2v reads itself (OVA); absent for the others. Contract: the variables are
   * returned in a stable order, names are `V2V_*` as Forklift's virt-v2v image reads them
   * (`V2V_source` names the input mode, e.g. `ova`), values are final (no templating), and
   * paths are as the pod sees the source's share mounted (OVA: the NFS share at `/ova`).
   * The destination adds what it owns (e.g. `V2V_*` of the target) after these. Rejects
   * when the VM is not in the inventory.
   */
  podEnvironment?(vm: Ref): Promise<Array<{ name: string; value: string }>>;
  /**
   * The CDI `DataVolume.spec.source` importing one disk (`http`, `vddk`, `imageio`...), given
   * the names of the VM's credential Secret and ConfigMap on the destination. Needed when CDI
   * copies the disks.
   */
  dataVolumeSource?(
    vm: Ref,
    disk: string,
    refs: { secret: string; configMap: string },
  ): Promise<Record<string, unknown>>;
}

/** Acts on the source (Forklift's `adapter.Client`): power, snapshots, and the disk transfer. */
export interface Client {
  powerState(vm: Ref): Promise<'On' | 'Off' | 'Unknown'>;
  powerOn(vm: Ref): Promise<void>;
  powerOff(vm: Ref): Promise<void>;
  poweredOff(vm: Ref): Promise<boolean>;
  /** Creates a snapshot and returns its id. */
  createSnapshot(vm: Ref): Promise<string>;
  checkSnapshotReady(vm: Ref, snapshot: string): Promise<boolean>;
  removeSnapshot(vm: Ref, snapshot: string): Promise<void>;
  /** Starts (idempotently) copying the VM's disks; `round` counts warm precopies from 0. */
  startTransfer(vm: Ref, round: number): Promise<void>;
  /** The transfer of every disk of the current round. */
  transferStatus(vm: Ref): Promise<DiskTransfer[]>;
  /** Stops a transfer (cancel). */
  cancelTransfer(vm: Ref): Promise<void>;
}

/** Source-specific validation (Forklift's `adapter.Validator`). */
export interface Validator {
  /** The provider supports warm migration. */
  warmMigration(): boolean;
  /** The plan's migration type is supported by the provider. */
  migrationType(): boolean;
  /** Every network of the VM is in the NetworkMap. */
  networksMapped(vm: Ref): Promise<boolean>;
  /** Every datastore of the VM is in the StorageMap. */
  storageMapped(vm: Ref): Promise<boolean>;
}

/** A VM created on the destination. */
export interface DestinationVM {
  name: string;
  namespace: string;
  uid: string;
}

/** The destination cluster (Forklift's KubeVirt + `adapter.DestinationClient`). */
export interface DestinationClient {
  /** Ensures the target namespace exists. */
  ensureNamespace(namespace: string): Promise<void>;
  /** Whether a VM named `name` exists in `namespace`. */
  vmExists(namespace: string, name: string): Promise<boolean>;
  /** Deletes what was created for the VM (and the VM and its disks when `deleteVM`). */
  cleanup(vm: VMStatus, options: { deleteVM: boolean }): Promise<void>;
  /** Deletes what a deleted plan left behind, except what a VM owns. Returns how many objects went. */
  deleteOrphans(planNamespace: string, planName: string): Promise<number>;
  /**
   * The transfer of each disk as the destination's importer reports it (CDI DataVolumes'
   * status). When present, the runner reads disk copies and allocations here instead of
   * from the source `Client`.
   */
  diskTransfers?(vm: VMStatus): Promise<DiskTransfer[]>;
}

/** The state of a VM's guest conversion (its virt-v2v pod). */
export interface ConversionStatus {
  /** The pod's phase; `NotFound` when there is no pod. */
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown' | 'NotFound';
  /** Why it failed (with `Failed`). */
  message?: string;
  /** Copy progress per disk, 0-100, by the disk's 1-based index (virt-v2v's `disk_id`). */
  disks: ReadonlyMap<number, number>;
}

/** Converts a VM's guest with virt-v2v on the destination (Forklift's KubeVirt conversion pod). */
export interface GuestConversion {
  /** Ensures one blank disk per task for virt-v2v to fill; only missing ones are created. */
  allocateDisks(vm: VMStatus, tasks: Task[]): Promise<void>;
  /** Ensures the VM's conversion pod; true once it exists. */
  ensureConversionPod(vm: VMStatus): Promise<boolean>;
  /** The conversion pod's phase and per-disk progress. */
  conversionStatus(vm: VMStatus): Promise<ConversionStatus>;
}

/** Idempotent creation of a VM's destination objects (Forklift's `Ensurer`). */
export interface Ensurer {
  /** Ensures one disk object per task; only missing ones are created. */
  ensureDataVolumes(vm: VMStatus, tasks: Task[]): Promise<void>;
  /** Ensures the VM (found by its labels) and makes it own its disks. */
  ensureVM(vm: VMStatus, spec: { running: boolean }): Promise<DestinationVM>;
}

/** The per-provider strategy of a VM's migration (Forklift's `Migrator`). */
export interface Migrator {
  /** Called once when an execution begins. */
  begin(): Promise<void>;
  /** Called when a VM's migration ends. */
  complete(vm: VMStatus): void;
  /** The VM's status in the plan, or a fresh one. */
  status(vm: PlanVM): VMStatus;
  /** Clears a VM's run state and installs `pipeline`. */
  reset(vm: VMStatus, pipeline: Step[]): void;
  /** The VM's itinerary. */
  itinerary(vm: PlanVM): ItineraryView;
  /** The VM's steps, Pending. */
  pipeline(vm: PlanVM): Promise<Step[]>;
  /** The step name grouping the VM's current phase. */
  step(vm: VMStatus): string;
  /** Runs the phase if the migrator implements it (true), else the shared switch runs it (false). */
  executePhase(vm: VMStatus): Promise<boolean>;
}

/** Whether a destination also converts guests (implements every method of {@link GuestConversion}). */
export function isGuestConversion<T extends object>(d: T): d is T & GuestConversion {
  const c = d as Partial<GuestConversion>;
  return (
    typeof c.allocateDisks === 'function' &&
    typeof c.ensureConversionPod === 'function' &&
    typeof c.conversionStatus === 'function'
  );
}

/**
 * Inspects a provider of one type for the `ProviderController` (`./controllers`): tests its
 * connection, reads its inventory or catalog, and returns the conditions found. A Critical or
 * Error condition keeps the provider from being Ready; a `Ready` condition returned here wins
 * over the controller's (return it with status `False` for "not yet"). Throw for a transient
 * failure: the controller retries with backoff and leaves the status as it was.
 */
export type ProviderInspector = (
  provider: Provider,
  signal: AbortSignal,
) => Promise<NewCondition[]> | NewCondition[];

/** A source provider's adapters (Forklift's `adapter.Adapter` for one provider). */
export interface SourceAdapter {
  inventory: Inventory;
  client: Client;
  builder: Builder;
  validator(plan: Plan, maps: { network?: NetworkMap; storage?: StorageMap }): Validator;
}

/** What the PlanController's `destination` factory (`PlanControllerOptions.destination`) is given. */
export interface DestinationContext {
  /** The plan (a bare name and namespace when cleaning up after a deleted plan). */
  plan: Plan;
  /** The active Migration's UID, `''` when there is none. */
  migrationUID: string;
  /** The active Migration's name, `''` when there is none. */
  migrationName: string;
  /** The plan's source Provider, when it resolves. */
  source?: Provider;
  /** The source's builder, when the source has an adapter. */
  builder?: Builder;
  /** The source's inventory, when the source has an adapter. */
  inventory?: Inventory;
  /** The plan's StorageMap, when it resolves. */
  storageMap?: StorageMap;
  /** The plan's NetworkMap, when it resolves. */
  networkMap?: NetworkMap;
  /** The runtime's one client: where the destination objects are written. */
  client: ApiClient;
}

/** A destination: where disks and VMs are created, optionally converting guests. */
export type Destination = DestinationClient & Ensurer & Partial<GuestConversion>;

/** The outcome of a hook run. */
export type HookResult = { done: false } | { done: true; failed?: string };

/** What a hook run knows of the plan's source besides the plan: its inventory and type. */
export interface HookContext {
  /** The source provider's inventory, where the hook's workload (the VM) comes from. */
  inventory: Inventory;
  /** The source provider's type, e.g. `ova`. */
  sourceType?: string;
}

/** Runs a VM's hook (a Job, upstream). Called each pass until it reports done. */
export interface HookRunner {
  run(plan: Plan, vm: VMStatus, hook: HookRef, context?: HookContext): Promise<HookResult>;
}
