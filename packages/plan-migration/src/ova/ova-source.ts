//! The source adapter of providers of type `ova`: inventory, client, builder and validator over an OVA catalog.

import { posix } from 'node:path';
import type { Builder, Client, InventoryVM, SourceAdapter, Validator } from '../adapter.js';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Plan, Task } from '../api/plan.js';
import type { Ref } from '../api/ref.js';
import { DEFAULT_OVA_CATALOG_PATH, OvaInventory, type OvaInventoryOptions } from './inventory.js';
import { OvaError } from './ova-error.js';

/** `V2V_source` of the conversion pod of an OVA VM: `ova`. */
export const V2V_SOURCE_OVA = 'ova';

/** Options of {@link OvaSource}: the inventory's (or an inventory to share), and the share's mount in the conversion pod. */
export type OvaSourceOptions = (OvaInventoryOptions | { inventory: OvaInventory }) & {
  /**
   * Where the conversion pod mounts the catalog's NFS share: paths under the inventory's
   * `catalogPath` are given to virt-v2v under this folder. Default {@link DEFAULT_OVA_CATALOG_PATH}
   * (`/ova`, as Forklift mounts it).
   */
  podMountPath?: string;
};

/**
 * Forklift's OVA adapter (`plan/adapter/ova`, on `ovfbase`). OVA VMs are files: they are
 * always `Off`, power operations succeed without doing anything, and there are no snapshots.
 * The pipeline is cold and virt-v2v reads the disks from the share itself, so this client
 * never starts a transfer: `startTransfer`/`transferStatus` and snapshots throw `OvaError`
 * `NotSupported`; `cancelTransfer` has nothing to stop and succeeds.
 */
export class OvaSource implements SourceAdapter {
  /** The catalog's inventory. */
  readonly inventory: OvaInventory;
  readonly client: Client;
  readonly builder: Builder & Required<Pick<Builder, 'podEnvironment'>>;

  readonly #podMountPath: string;

  constructor(options: OvaSourceOptions = {}) {
    this.inventory =
      'inventory' in options && options.inventory instanceof OvaInventory
        ? options.inventory
        : new OvaInventory(options as OvaInventoryOptions);
    this.#podMountPath = options.podMountPath ?? DEFAULT_OVA_CATALOG_PATH;
    const notSupported = (what: string) => async (): Promise<never> => {
      throw new OvaError(
        'NotSupported',
        `${what} is not supported for OVA: the migration is cold and virt-v2v copies the disks`,
      );
    };
    this.client = {
      powerState: async () => 'Off',
      powerOn: async () => {},
      powerOff: async () => {},
      poweredOff: async () => true,
      createSnapshot: notSupported('createSnapshot'),
      checkSnapshotReady: notSupported('checkSnapshotReady'),
      removeSnapshot: notSupported('removeSnapshot'),
      startTransfer: notSupported('startTransfer'),
      transferStatus: notSupported('transferStatus'),
      cancelTransfer: async () => {},
    };
    this.builder = {
      tasks: (ref) => this.#tasks(ref),
      podEnvironment: (ref) => this.#podEnvironment(ref),
    };
  }

  /**
   * A validator for `plan` and its maps, as upstream's OVA validator: warm is never
   * supported, only cold (or unset) migration types are; every network of the VM (those its
   * NICs connect to) and every disk (OVA storage is per disk) must be a source of the map,
   * by id, or by name when the pair gives no id (the map controller's name resolution).
   */
  validator(plan: Plan, maps: { network?: NetworkMap; storage?: StorageMap }): Validator {
    const mapped = (pairs: Array<{ source: Ref }> | undefined, id: string, name?: string) =>
      (pairs ?? []).some((p) =>
        p.source.id ? p.source.id === id : name !== undefined && p.source.name === name,
      );
    return {
      warmMigration: () => false,
      migrationType: () => plan.spec.type === undefined || plan.spec.type === 'cold',
      networksMapped: async (ref) => {
        if (maps.network === undefined) return false;
        const vm = await this.inventory.findVM(ref);
        if (vm === undefined) return false;
        const networks = await this.inventory.listNetworks();
        return vm.networks.every((id) =>
          mapped(maps.network?.spec.map, id, networks.find((n) => n.id === id)?.name),
        );
      },
      storageMapped: async (ref) => {
        if (maps.storage === undefined) return false;
        const vm = await this.inventory.findVM(ref);
        if (vm === undefined) return false;
        return vm.disks.every((d) => mapped(maps.storage?.spec.map, d.datastore, d.fileName));
      },
    };
  }

  async #vm(ref: Ref): Promise<InventoryVM> {
    const vm = await this.inventory.findVM(ref);
    if (vm === undefined) {
      throw new OvaError('VMNotFound', `VM ${ref.id || ref.name} is not in the OVA catalog`);
    }
    return vm;
  }

  /** The VM's appliance path as the conversion pod (and upstream's inventory) sees it. */
  #sharePath(vm: InventoryVM): string {
    return posix.join(
      this.#podMountPath,
      posix.relative(this.inventory.catalogPath, vm.ovaPath ?? ''),
    );
  }

  // Upstream's OVA builder: one task per disk, named `<.ova path or .ovf folder/>::<file name>`, total in MiB.
  async #tasks(ref: Ref): Promise<Task[]> {
    const vm = await this.#vm(ref);
    return vm.disks.map((d) => ({
      name: `${diskFilePath(this.#sharePath(vm))}::${d.fileName ?? d.id}`,
      progress: { completed: 0, total: d.capacityMiB },
      annotations: { unit: 'MB' },
    }));
  }

  // Upstream's OVA builder's PodEnvironment.
  async #podEnvironment(ref: Ref): Promise<Array<{ name: string; value: string }>> {
    const vm = await this.#vm(ref);
    const path = this.#sharePath(vm);
    return [
      { name: 'V2V_vmName', value: vm.name },
      { name: 'V2V_diskPath', value: path.endsWith('.ova') ? path : posix.dirname(path) },
      { name: 'V2V_source', value: V2V_SOURCE_OVA },
    ];
  }
}

/** Upstream's disk `FilePath`: the `.ova` itself, or the `.ovf`'s folder with a trailing slash. */
function diskFilePath(path: string): string {
  return posix.extname(path) === '.ovf' ? `${posix.dirname(path)}/` : path;
}
