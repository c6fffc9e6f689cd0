//! Parses an OVF descriptor: virtual systems (also inside collections), hardware, disks paired with files by `fileRef`, networks, and the exporter.

import { OvaError } from './ova-error.js';
import { attr, childNamed, childrenNamed, parseXml, type XmlElement } from './xml.js';

/** Who exported the appliance, as upstream's `GuessSource` names them. */
export type ExportSource = 'VMware' | 'VirtualBox' | 'Xen' | 'oVirt' | 'Unknown';

/** CIM resource types (`rasd:ResourceType`) the inventory reads. */
export const ResourceType = {
  Processor: 3,
  Memory: 4,
  EthernetAdapter: 10,
  HardDiskDrive: 17,
} as const;

/** A `References/File`. */
export interface OvfFile {
  id: string;
  href: string;
}

/** A `DiskSection/Disk`, with its file. */
export interface OvfDisk {
  diskId: string;
  fileRef: string;
  /** The referenced file; undefined for a disk without one (a blank disk to create). */
  file: OvfFile | undefined;
  /** `ovf:capacity` as written, in `capacityAllocationUnits`. */
  capacity: bigint;
  capacityAllocationUnits: string;
  /** The capacity in bytes (`capacityAllocationUnits` applied). */
  capacityBytes: number;
  format: string;
  populatedSize: bigint;
  /** `ovf:parentRef`: the diskId of the disk this one is a delta of; '' for a base disk. */
  parentRef: string;
}

/** A `NetworkSection/Network`. */
export interface OvfNetwork {
  name: string;
  description: string;
}

/** A hardware `Item`. */
export interface OvfItem {
  resourceType: number;
  elementName: string;
  description: string;
  instanceId: string;
  /** `VirtualQuantity` as written, in `allocationUnits`. */
  virtualQuantity: bigint;
  allocationUnits: string;
  /** For a NIC, its MAC. */
  address: string;
  /** For a NIC, the network name. */
  connection: string;
  /** `HostResource` values, e.g. `ovf:/disk/vmdisk1`. */
  hostResources: string[];
  /** VMware's `vmw:CoresPerSocket`, as written. */
  coresPerSocket: string;
  /** `ovf:configuration`: the DeploymentOption configurations the item belongs to; empty: all. */
  configurations: string[];
}

/** A `VirtualSystem`. */
export interface OvfVirtualSystem {
  /** `ovf:id`. */
  id: string;
  name: string;
  osType: string;
  /** The `OperatingSystemSection` `Description` (VirtualBox names the guest there, e.g. `Windows10_64`). */
  osDescription: string;
  /** `VirtualSystemType`s of the hardware sections, e.g. `vmx-13`, `virtualbox-2.2`. */
  systemTypes: string[];
  items: OvfItem[];
  /** VMware `vmw:Config` then `vmw:ExtraConfig` key/values of the hardware section. */
  configs: Array<{ key: string; value: string }>;
}

/** A parsed descriptor. */
export interface OvfEnvelope {
  /** The exporter guessed as upstream does (from the `Envelope`'s namespace declarations). */
  upstreamExportSource: ExportSource;
  /** The exporter: upstream's guess, else from the systems' `VirtualSystemType`. */
  exportSource: ExportSource;
  files: OvfFile[];
  disks: OvfDisk[];
  networks: OvfNetwork[];
  /** Every virtual system, also those inside (nested) `VirtualSystemCollection`s, in document order. */
  systems: OvfVirtualSystem[];
  /**
   * The `DeploymentOptionSection`'s default configuration (`ovf:default="true"`, else the
   * first); undefined when the descriptor declares none.
   */
  defaultConfiguration: string | undefined;
}

const VMWARE_NS = 'http://www.vmware.com/schema/ovf';
const SOURCE_BY_NAMESPACE: Record<string, ExportSource> = {
  'http://schemas.citrix.com/ovf/envelope/1': 'Xen',
  'http://www.citrix.com/xenclient/ovf/1': 'Xen',
  'http://www.virtualbox.org/ovf/machine': 'VirtualBox',
  'http://www.ovirt.org/ovf': 'oVirt',
};

/**
 * Parses the OVF descriptor `xml` (read from `file`, named in errors).
 *
 * `${name}` placeholders are resolved from the `ProductSection` properties' default values
 * (`ovf:value`); one without a value stays as written in a text field (a description), and
 * is an error only in a number (a capacity, a quantity) or unit.
 *
 * Errors: `OvaError` `MalformedOvf` for XML that is not well-formed, a root that is not an
 * `Envelope`, or a number or unit that does not parse; `UnresolvedProperty` for a
 * `${name}` placeholder with no default value in a number or unit; `UnsupportedOvfVersion`
 * for an OVF 0.9 descriptor (`<Section xsi:type=…>`, `<Content>`), whose VMs would
 * otherwise silently be none.
 */
export function parseOvf(xml: string, file: string): OvfEnvelope {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (cause) {
    throw new OvaError('MalformedOvf', `${file}: malformed XML: ${(cause as Error).message}`, {
      file,
      cause,
    });
  }
  if (root.local !== 'Envelope') {
    throw new OvaError(
      'MalformedOvf',
      `${file}: not an OVF descriptor: the root element is <${root.local}>, not <Envelope>`,
      { file },
    );
  }
  checkVersion(root, file);
  const r = new Reader(file, properties(root));
  const files = children(childNamed(root, 'References'), 'File').map((f) => ({
    id: r.attr(f, 'id'),
    href: r.attr(f, 'href'),
  }));
  const disks = children(childNamed(root, 'DiskSection'), 'Disk').map((d): OvfDisk => {
    const capacity = r.int(d, r.attr(d, 'capacity'), 'ovf:capacity');
    const units = r.attr(d, 'capacityAllocationUnits');
    const fileRef = r.attr(d, 'fileRef');
    return {
      diskId: r.attr(d, 'diskId'),
      fileRef,
      file: fileRef === '' ? undefined : files.find((f) => f.id === fileRef),
      capacity,
      capacityAllocationUnits: units,
      capacityBytes:
        Number(capacity) * r.units(units === '' ? 'byte' : units, 'capacityAllocationUnits'),
      format: r.attr(d, 'format'),
      populatedSize: r.int(d, r.attr(d, 'populatedSize'), 'ovf:populatedSize'),
      parentRef: r.attr(d, 'parentRef'),
    };
  });
  const networks = children(childNamed(root, 'NetworkSection'), 'Network').map((n) => ({
    name: r.attr(n, 'name'),
    description: r.text(childNamed(n, 'Description')),
  }));
  const systems = virtualSystems(root).map((s) => r.system(s));
  const upstreamExportSource = guessSource(root);
  return {
    upstreamExportSource,
    exportSource:
      upstreamExportSource === 'Unknown'
        ? sourceFromSystemTypes(systems.flatMap((s) => s.systemTypes))
        : upstreamExportSource,
    files,
    disks,
    networks,
    systems,
    defaultConfiguration: defaultConfiguration(root),
  };
}

/** The default configuration of the `DeploymentOptionSection`, if any. */
function defaultConfiguration(root: XmlElement): string | undefined {
  const configs = children(childNamed(root, 'DeploymentOptionSection'), 'Configuration');
  const chosen = configs.find((c) => attr(c, 'default') === 'true') ?? configs[0];
  return chosen === undefined ? undefined : (attr(chosen, 'id') ?? '');
}

/**
 * The items of `system` in `configuration` (all of them when undefined): those without
 * `ovf:configuration` and those listing it.
 */
export function itemsOf(system: OvfVirtualSystem, configuration: string | undefined): OvfItem[] {
  if (configuration === undefined) return system.items;
  return system.items.filter(
    (i) => i.configurations.length === 0 || i.configurations.includes(configuration),
  );
}

/** OVF 0.9 (VMware's pre-DMTF format): sections are `<Section xsi:type=…>` and systems `<Content>`. */
function checkVersion(root: XmlElement, file: string): void {
  const old = root.children.find((c) => c.local === 'Section' || c.local === 'Content');
  if (old === undefined) return;
  const type = attr(old, 'type');
  throw new OvaError(
    'UnsupportedOvfVersion',
    `${file}: an OVF 0.9 descriptor (<${old.local}${type === undefined ? '' : ` xsi:type="${type}"`}>): only OVF 1.x and 2.x descriptors are read; convert it (e.g. ovftool) to OVF 1.0`,
    { file },
  );
}

/**
 * Bytes per unit of a DMTF programmatic unit (`byte`, `byte * 2^20`, `byte*1024`) or of a
 * unit name (`KiloBytes`, `MegaBytes`, `GigaBytes`, `TeraBytes`). Undefined when it does not parse.
 */
export function unitBytes(units: string): number | undefined {
  const compact = units.replaceAll(/\s+/g, '').toLowerCase();
  const named: Record<string, number> = {
    byte: 1,
    bytes: 1,
    kilobyte: 2 ** 10,
    kilobytes: 2 ** 10,
    megabyte: 2 ** 20,
    megabytes: 2 ** 20,
    gigabyte: 2 ** 30,
    gigabytes: 2 ** 30,
    terabyte: 2 ** 40,
    terabytes: 2 ** 40,
  };
  if (named[compact] !== undefined) return named[compact];
  const [base, ...factors] = compact.split('*');
  if (base !== 'byte' || factors.length === 0) return undefined;
  let bytes = 1;
  for (const factor of factors) {
    const [b, e, ...rest] = factor.split('^');
    if (rest.length > 0 || !/^\d+$/.test(b ?? '') || (e !== undefined && !/^\d+$/.test(e))) {
      return undefined;
    }
    bytes *= Number(b) ** (e === undefined ? 1 : Number(e));
  }
  return bytes;
}

/** Reads values, resolving `${property}` placeholders and naming the file in errors. */
class Reader {
  constructor(
    readonly file: string,
    readonly props: ReadonlyMap<string, string>,
  ) {}

  /**
   * `value` with its `${name}` placeholders replaced by the properties' values; one
   * without a value stays as written (text fields tolerate it, as Forklift's parser reads
   * them verbatim; numbers check it in {@link Reader.int}).
   */
  resolve(value: string): string {
    return value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => this.props.get(name) ?? whole);
  }

  /** Throws `UnresolvedProperty` for a placeholder left in `value`, a field that needs a value. */
  needValue(value: string, where: string): void {
    const name = /\$\{([^}]*)\}/.exec(value)?.[1];
    if (name === undefined) return;
    throw new OvaError(
      'UnresolvedProperty',
      `${this.file}: ${where} refers to property \${${name}}, which has no value`,
      { file: this.file },
    );
  }

  attr(e: XmlElement, local: string): string {
    return this.resolve(attr(e, local) ?? '');
  }

  text(e: XmlElement | undefined): string {
    return e === undefined ? '' : this.resolve(e.text);
  }

  int(e: XmlElement, value: string, what: string): bigint {
    this.needValue(value, `<${e.local}> ${what}`);
    const trimmed = value.trim();
    if (trimmed === '') return 0n;
    if (!/^[-+]?\d+$/.test(trimmed)) {
      throw new OvaError(
        'MalformedOvf',
        `${this.file}: <${e.local}> ${what} is not an integer: '${value}'`,
        { file: this.file },
      );
    }
    return BigInt(trimmed);
  }

  units(units: string, what: string): number {
    this.needValue(units, what);
    const bytes = unitBytes(units);
    if (bytes === undefined) {
      throw new OvaError('MalformedOvf', `${this.file}: unknown ${what} '${units}'`, {
        file: this.file,
      });
    }
    return bytes;
  }

  system(s: XmlElement): OvfVirtualSystem {
    const hardware = childrenNamed(s, 'VirtualHardwareSection');
    const os = childNamed(s, 'OperatingSystemSection');
    const configs: Array<{ key: string; value: string }> = [];
    for (const kind of ['Config', 'ExtraConfig']) {
      for (const h of hardware) {
        for (const c of childrenNamed(h, kind)) {
          if (c.ns === VMWARE_NS)
            configs.push({ key: this.attr(c, 'key'), value: this.attr(c, 'value') });
        }
      }
    }
    return {
      id: this.attr(s, 'id'),
      name: this.text(childNamed(s, 'Name')),
      osType: os === undefined ? '' : this.attr(os, 'osType'),
      osDescription: os === undefined ? '' : this.text(childNamed(os, 'Description')),
      systemTypes: hardware.flatMap((h) =>
        children(childNamed(h, 'System'), 'VirtualSystemType').map((t) => this.text(t)),
      ),
      items: hardware.flatMap((h) => childrenNamed(h, 'Item')).map((i) => this.item(i)),
      configs,
    };
  }

  item(i: XmlElement): OvfItem {
    const text = (local: string) => this.text(childNamed(i, local));
    const resourceType = this.int(i, text('ResourceType'), 'ResourceType');
    return {
      resourceType: Number(resourceType),
      elementName: text('ElementName'),
      description: text('Description'),
      instanceId: text('InstanceID'),
      virtualQuantity: this.int(i, text('VirtualQuantity'), 'VirtualQuantity'),
      allocationUnits: text('AllocationUnits'),
      address: text('Address'),
      connection: text('Connection'),
      hostResources: childrenNamed(i, 'HostResource').map((h) => this.text(h)),
      coresPerSocket: text('CoresPerSocket'),
      configurations: this.attr(i, 'configuration')
        .split(/\s+/)
        .filter((c) => c !== ''),
    };
  }
}

function children(e: XmlElement | undefined, local: string): XmlElement[] {
  return e === undefined ? [] : childrenNamed(e, local);
}

/** `ProductSection/Property` default values by key (also `class.key` and `class.key.instance`). */
function properties(root: XmlElement): Map<string, string> {
  const props = new Map<string, string>();
  const visit = (e: XmlElement) => {
    for (const section of childrenNamed(e, 'ProductSection')) {
      const cls = attr(section, 'class') ?? '';
      const instance = attr(section, 'instance') ?? '';
      for (const p of childrenNamed(section, 'Property')) {
        const key = attr(p, 'key');
        const value = attr(p, 'value');
        if (key === undefined || value === undefined) continue;
        const full = [cls, key, instance].filter((x) => x !== '').join('.');
        props.set(full, value);
        if (!props.has(key)) props.set(key, value);
      }
    }
    for (const c of e.children)
      if (c.local === 'VirtualSystem' || c.local === 'VirtualSystemCollection') visit(c);
  };
  visit(root);
  return props;
}

function virtualSystems(e: XmlElement): XmlElement[] {
  return e.children.flatMap((c) => {
    if (c.local === 'VirtualSystem') return [c];
    if (c.local === 'VirtualSystemCollection') return virtualSystems(c);
    return [];
  });
}

/** Upstream's `GuessSource`: the first known namespace among the Envelope's attributes, else VMware if declared. */
function guessSource(root: XmlElement): ExportSource {
  let vmware = false;
  for (const value of root.attrs.values()) {
    const source = SOURCE_BY_NAMESPACE[value];
    if (source !== undefined) return source;
    if (value.includes(VMWARE_NS)) vmware = true;
  }
  return vmware ? 'VMware' : 'Unknown';
}

function sourceFromSystemTypes(types: string[]): ExportSource {
  for (const t of types.map((x) => x.toLowerCase())) {
    if (t.startsWith('vmx-') || t.startsWith('vmware')) return 'VMware';
    if (t.startsWith('virtualbox')) return 'VirtualBox';
    if (t.startsWith('xen')) return 'Xen';
    if (t.startsWith('rhevm') || t.startsWith('ovirt') || t.startsWith('engine')) return 'oVirt';
  }
  return 'Unknown';
}
