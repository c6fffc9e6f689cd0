//! The inventory of an OVA catalog: VMs, networks and disks read from its appliances, rescanned when the catalog changes.

import { dirname, extname } from 'node:path';
import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/core';
import type { Inventory, InventoryDisk, InventoryNIC, InventoryVM } from '../adapter.js';
import type { Ref } from '../api/ref.js';
import { diskId, networkId, type UpstreamDisk, vmId } from './ids.js';
import { OvaError, type OvaErrorReason } from './ova-error.js';
import {
  itemsOf,
  type OvfDisk,
  type OvfEnvelope,
  type OvfItem,
  type OvfVirtualSystem,
  ResourceType,
  unitBytes,
} from './ovf-parser.js';
import {
  type CatalogFile,
  DEFAULT_OVA_MIN_FILE_AGE_MS,
  listCatalog,
  readAppliance,
} from './scan.js';

/** Where Forklift mounts the provider's NFS share (`spec.url`): `/ova`. */
export const DEFAULT_OVA_CATALOG_PATH = '/ova';
/** How long a scan is reused before the next read looks at the catalog again: 2 s. */
export const DEFAULT_OVA_RESCAN_AFTER_MS = 2_000;

/** Options of {@link OvaInventory}. */
export interface OvaInventoryOptions {
  /** The catalog folder (the NFS share's mount). Default {@link DEFAULT_OVA_CATALOG_PATH}. */
  catalogPath?: string;
  /** The clock for file ages and rescans. Default `realClock`. */
  clock?: Clock;
  /** Files changed less than this long ago (ms) are skipped. Default {@link DEFAULT_OVA_MIN_FILE_AGE_MS}. */
  minFileAgeMs?: number;
  /**
   * A read (`findVM`, `listVMs`, …) reuses the last scan if it is younger than this (ms);
   * otherwise it lists the catalog again (a `readdir`+`stat` walk) and re-parses only the
   * files whose size or mtime changed. 0 lists on every read. Default {@link DEFAULT_OVA_RESCAN_AFTER_MS}.
   */
  rescanAfterMs?: number;
}

/** A catalog file the inventory could not read, and why. */
export interface OvaProblem {
  file: string;
  reason: OvaErrorReason;
  message: string;
}

/** A network of the catalog (a `NetworkSection/Network` or a NIC's `Connection`). */
export interface OvaNetwork {
  /** The sha256-derived id of its name, as upstream. */
  id: string;
  name: string;
  description: string;
}

/** A disk of the catalog. */
export interface OvaDisk extends InventoryDisk {
  /** The disk's `ovf:diskId`. */
  diskId: string;
  /** The `.ova` (or `.ovf`) it was read from. */
  ovaPath: string;
  /** The ids of the VMs it belongs to. */
  vms: string[];
}

/** One scan of the catalog. */
export interface OvaCatalog {
  vms: InventoryVM[];
  networks: OvaNetwork[];
  disks: OvaDisk[];
  /** Files that could not be read (malformed, unresolved properties, no descriptor). */
  problems: OvaProblem[];
  /** Every appliance file seen, complete or not. */
  files: CatalogFile[];
  /** Bumped each time a scan finds the catalog's content changed. */
  generation: number;
  /** When the catalog was listed (clock ms). */
  scannedAt: number;
}

interface FileResult {
  size: number;
  mtimeMs: number;
  vms: InventoryVM[];
  networks: OvaNetwork[];
  disks: OvaDisk[];
  problem?: OvaProblem;
}

/**
 * The inventory of an OVA catalog folder, as Forklift's OVA provider server serves it.
 * Reads are on demand: each one rescans the catalog when the last scan is older than
 * `rescanAfterMs`, and re-parses only files whose size or mtime changed. A file that cannot
 * be read is a {@link OvaProblem}, never an error of the scan.
 *
 * Errors: reads reject with `OvaError` `CatalogNotFound` when the catalog folder is missing.
 */
export class OvaInventory implements Inventory {
  /** The catalog folder. */
  readonly catalogPath: string;
  readonly #clock: Clock;
  readonly #minAge: number;
  readonly #rescanAfter: number;
  readonly #files = new Map<string, FileResult>();
  #catalog: OvaCatalog | undefined;
  #scanning: Promise<OvaCatalog> | undefined;
  #signature = '';

  constructor(options: OvaInventoryOptions = {}) {
    for (const key of ['minFileAgeMs', 'rescanAfterMs'] as const) {
      const v = options[key];
      if (v !== undefined && (!Number.isFinite(v) || v < 0)) {
        throw new InvalidArgumentError(key, `must be a finite number >= 0, got ${v}`);
      }
    }
    if (options.catalogPath !== undefined && options.catalogPath === '') {
      throw new InvalidArgumentError('catalogPath', 'must not be empty');
    }
    this.catalogPath = options.catalogPath ?? DEFAULT_OVA_CATALOG_PATH;
    this.#clock = options.clock ?? realClock;
    this.#minAge = options.minFileAgeMs ?? DEFAULT_OVA_MIN_FILE_AGE_MS;
    this.#rescanAfter = options.rescanAfterMs ?? DEFAULT_OVA_RESCAN_AFTER_MS;
  }

  /** The catalog, rescanned if the last scan is older than `rescanAfterMs` (or `force`). */
  async catalog(options: { force?: boolean } = {}): Promise<OvaCatalog> {
    const last = this.#catalog;
    if (
      options.force !== true &&
      last !== undefined &&
      this.#clock.now() - last.scannedAt < this.#rescanAfter
    ) {
      return last;
    }
    this.#scanning ??= this.#scan().finally(() => {
      this.#scanning = undefined;
    });
    return this.#scanning;
  }

  async findVM(ref: Ref): Promise<InventoryVM | undefined> {
    const { vms } = await this.catalog();
    if (ref.id) return vms.find((vm) => vm.id === ref.id);
    if (ref.name) return vms.find((vm) => vm.name === ref.name);
    return undefined;
  }

  async listVMs(): Promise<InventoryVM[]> {
    return (await this.catalog()).vms;
  }

  /** Every network of the catalog, once per id. */
  async listNetworks(): Promise<OvaNetwork[]> {
    return (await this.catalog()).networks;
  }

  /** Every disk of the catalog. */
  async listDisks(): Promise<OvaDisk[]> {
    return (await this.catalog()).disks;
  }

  async #scan(): Promise<OvaCatalog> {
    const scannedAt = this.#clock.now();
    const files = await listCatalog(this.catalogPath, this.#clock, this.#minAge);
    const seen = new Set<string>();
    for (const file of files) {
      if (!file.complete) continue;
      seen.add(file.path);
      const cached = this.#files.get(file.path);
      if (cached?.size === file.size && cached.mtimeMs === file.mtimeMs) continue;
      this.#files.set(file.path, await readCatalogFile(file));
    }
    for (const path of this.#files.keys()) if (!seen.has(path)) this.#files.delete(path);
    const signature = files
      .map((f) => `${f.path}\0${f.size}\0${f.mtimeMs}\0${f.complete}`)
      .join('\n');
    const generation = (this.#catalog?.generation ?? 0) + (signature === this.#signature ? 0 : 1);
    this.#signature = signature;
    const results = files.flatMap((f) => this.#files.get(f.path) ?? []);
    const networks = new Map<string, OvaNetwork>();
    for (const n of results.flatMap((r) => r.networks))
      if (!networks.has(n.id)) networks.set(n.id, n);
    this.#catalog = {
      vms: results.flatMap((r) => r.vms),
      networks: [...networks.values()],
      disks: results.flatMap((r) => r.disks),
      problems: results.flatMap((r) => (r.problem === undefined ? [] : [r.problem])),
      files,
      generation,
      scannedAt,
    };
    return this.#catalog;
  }
}

async function readCatalogFile(file: CatalogFile): Promise<FileResult> {
  const base = { size: file.size, mtimeMs: file.mtimeMs };
  try {
    return { ...base, ...applianceInventory(file.path, await readAppliance(file)) };
  } catch (error) {
    const reason: OvaErrorReason = OvaError.isInstance(error) ? error.reason : 'Unreadable';
    const message = OvaError.isInstance(error)
      ? error.message
      : `${file.path}: cannot be read: ${(error as Error).message}`;
    return {
      ...base,
      vms: [],
      networks: [],
      disks: [],
      problem: { file: file.path, reason, message },
    };
  }
}

/**
 * The VMs, networks and disks of one appliance read from `path`. Ids are upstream's; disks
 * go to the VM whose hardware references them (`HostResource` `ovf:/disk/<diskId>`), or, for a
 * single system that references none, all of the envelope's disks (upstream's behaviour).
 *
 * Errors: `OvaError` `MalformedOvf` for an `AllocationUnits` that does not parse.
 */
export function applianceInventory(
  path: string,
  envelope: OvfEnvelope,
): Pick<FileResult, 'vms' | 'networks' | 'disks'> {
  // Upstream's disk FilePath: the .ova itself, or the .ovf's folder with a trailing slash.
  const filePath = extname(path) === '.ovf' ? `${dirname(path)}/` : path;
  const upstreamDisks = envelope.disks.map((d) => upstreamDisk(d, filePath));
  const diskIds = upstreamDisks.map(diskId);
  const networks = new Map<string, OvaNetwork>();
  const addNetwork = (name: string, description = '') => {
    const id = networkId(name);
    if (!networks.has(id)) networks.set(id, { id, name, description });
    return id;
  };
  for (const n of envelope.networks) addNetwork(n.name, n.description);
  const disks: OvaDisk[] = envelope.disks.map((d, i) => ({
    id: diskIds[i] as string,
    diskId: d.diskId,
    capacityMiB: Math.floor(d.capacityBytes / 2 ** 20),
    datastore: diskIds[i] as string,
    ...(d.file === undefined ? {} : { fileName: d.file.href }),
    ...(d.format === '' ? {} : { format: d.format }),
    ovaPath: path,
    vms: [],
  }));
  const vms = envelope.systems.map((system) => {
    // Ids hash what upstream reads (every item); the VM's hardware is the default configuration's.
    const hardware = readHardware(system, system.items, path);
    const items = itemsOf(system, envelope.defaultConfiguration);
    const selected = items === system.items ? hardware : readHardware(system, items, path);
    const id = vmId(system.id, {
      name: system.name,
      ovfPath: path,
      exportSource: envelope.upstreamExportSource,
      osType: system.osType,
      ...hardware.upstream,
      nics: hardware.nics,
      disks: upstreamDisks,
      networks: envelope.networks,
    });
    const referenced = withParents(
      new Set(items.flatMap((i) => i.hostResources.map(diskRef))),
      envelope.disks,
    );
    const own =
      referenced.size === 0 && envelope.systems.length === 1
        ? disks
        : disks.filter((d) => referenced.has(d.diskId));
    for (const d of own) d.vms.push(id);
    const vm: InventoryVM = {
      id,
      name: system.name,
      powerState: 'Off',
      disks: own.map(({ diskId: _d, ovaPath: _p, vms: _v, ...disk }) => disk),
      networks: [
        ...new Set(selected.nics.filter((n) => n.network !== '').map((n) => addNetwork(n.network))),
      ],
      nics: selected.nics,
      ...(selected.memoryMiB === undefined ? {} : { memoryMiB: selected.memoryMiB }),
      ...(selected.hasCpu ? { cpuCount: Number(selected.upstream.cpuCount) } : {}),
      osType: system.osType,
      exportSource: envelope.exportSource,
      ovaPath: path,
    };
    const guestOS = system.osType || system.osDescription;
    if (guestOS !== '') vm.guestOS = guestOS;
    return vm;
  });
  return { vms, networks: [...networks.values()], disks };
}

function upstreamDisk(d: OvfDisk, filePath: string): UpstreamDisk {
  return {
    name: d.file?.href ?? '',
    filePath,
    capacity: d.capacity,
    capacityAllocationUnits: d.capacityAllocationUnits,
    diskId: d.diskId,
    fileRef: d.fileRef,
    format: d.format,
    populatedSize: d.populatedSize,
  };
}

/** The disk id of a `HostResource` (`ovf:/disk/<id>`, `/disk/<id>`), or '' for other resources. */
function diskRef(hostResource: string): string {
  const value = hostResource.startsWith('ovf:') ? hostResource.slice(4) : hostResource;
  const trimmed = value.replace(/^\/+/, '');
  return trimmed.startsWith('disk/') ? trimmed.slice(5) : '';
}

/**
 * The disk ids of `ids` and of every disk they are deltas of (`ovf:parentRef` chains), so
 * a delta disk is migrated with its base.
 */
function withParents(ids: Set<string>, disks: readonly OvfDisk[]): Set<string> {
  const parent = new Map(disks.map((d) => [d.diskId, d.parentRef]));
  const out = new Set<string>();
  for (let id of ids) {
    while (id !== '' && !out.has(id)) {
      out.add(id);
      id = parent.get(id) ?? '';
    }
  }
  return out;
}

/** What upstream reads of hardware `items` and the system's VMware configs, and the NICs and memory. */
function readHardware(system: OvfVirtualSystem, items: readonly OvfItem[], path: string) {
  const upstream = {
    firmware: '',
    secureBoot: false,
    cpuHotAddEnabled: false,
    cpuHotRemoveEnabled: false,
    memoryHotAddEnabled: false,
    cpuCount: 0n,
    coresPerSocket: 0n,
    memoryMB: 0n,
    memoryUnits: '',
    cpuUnits: '',
    devices: [] as string[],
  };
  const nics: InventoryNIC[] = [];
  let hasCpu = false;
  let hasMemory = false;
  for (const item of items) {
    switch (item.resourceType) {
      case ResourceType.Processor:
        hasCpu = true;
        upstream.cpuCount = item.virtualQuantity;
        upstream.cpuUnits = item.allocationUnits;
        if (item.coresPerSocket !== '') {
          upstream.coresPerSocket = /^[-+]?\d+$/.test(item.coresPerSocket)
            ? BigInt(item.coresPerSocket)
            : 1n;
        }
        break;
      case ResourceType.Memory:
        hasMemory = true;
        upstream.memoryMB = item.virtualQuantity;
        upstream.memoryUnits = item.allocationUnits;
        break;
      case ResourceType.EthernetAdapter:
        nics.push({ name: item.elementName, mac: item.address, network: item.connection });
        break;
      default: {
        // Upstream's device kind: "Hard Disk 1" -> "Hard Disk"; else the description.
        const kind =
          item.elementName !== '' ? item.elementName.replace(/[\d\s]+$/u, '') : item.description;
        upstream.devices.push(kind === '' ? 'Unknown' : kind);
      }
    }
  }
  for (const { key, value } of system.configs) {
    const bool = parseGoBool(value);
    if (key === 'firmware') upstream.firmware = value;
    else if (key === 'bootOptions.efiSecureBootEnabled' || key === 'uefi.secureBoot.enabled')
      upstream.secureBoot = bool;
    else if (key === 'memoryHotAddEnabled') upstream.memoryHotAddEnabled = bool;
    else if (key === 'cpuHotAddEnabled') upstream.cpuHotAddEnabled = bool;
    else if (key === 'cpuHotRemoveEnabled') upstream.cpuHotRemoveEnabled = bool;
  }
  // Memory without units is in MiB (the unit upstream assumes).
  const memoryUnits = upstream.memoryUnits === '' ? 'byte * 2^20' : upstream.memoryUnits;
  const bytes = unitBytes(memoryUnits);
  if (bytes === undefined) {
    throw new OvaError('MalformedOvf', `${path}: unknown memory AllocationUnits '${memoryUnits}'`, {
      file: path,
    });
  }
  const memoryMiB = hasMemory ? (Number(upstream.memoryMB) * bytes) / 2 ** 20 : undefined;
  return { upstream, nics, hasCpu, memoryMiB };
}

/** Go's strconv.ParseBool, false when it does not parse (as upstream ignores the error). */
function parseGoBool(value: string): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}
