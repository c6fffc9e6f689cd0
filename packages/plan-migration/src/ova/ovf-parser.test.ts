import { describe, expect, it } from 'vitest';
import { OvaError } from './ova-error.js';
import { parseOvf, unitBytes } from './ovf-parser.js';
import {
  COLLECTION_OVF,
  DEPLOYMENT_OPTIONS_OVF,
  FEWER_FILES_OVF,
  MALFORMED_OVF,
  OVF_09,
  OVIRT_OVF,
  TEXT_PLACEHOLDER_OVF,
  UNRESOLVED_PROPERTY_OVF,
  VIRTUALBOX_OVF,
  VMWARE_OVF,
  XEN_OVF,
} from './testing/ovf-fixtures.js';

function failure(xml: string): OvaError {
  try {
    parseOvf(xml, '/ova/x.ovf');
  } catch (error) {
    if (OvaError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('parsed');
}

describe('parseOvf', () => {
  it('guesses the exporter of each dialect', () => {
    expect(parseOvf(VMWARE_OVF, 'a').exportSource).toBe('VMware');
    expect(parseOvf(VIRTUALBOX_OVF, 'a').exportSource).toBe('VirtualBox');
    expect(parseOvf(XEN_OVF, 'a').exportSource).toBe('Xen');
    expect(parseOvf(OVIRT_OVF, 'a').exportSource).toBe('oVirt');
  });

  it('falls back to VirtualSystemType where upstream answers Unknown', () => {
    const xml = `<Envelope xmlns="http://schemas.dmtf.org/ovf/envelope/1" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" xmlns:vssd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData">
      <VirtualSystem ovf:id="v"><Name>v</Name><VirtualHardwareSection>
        <System><vssd:VirtualSystemType>vmx-13</vssd:VirtualSystemType></System>
      </VirtualHardwareSection></VirtualSystem></Envelope>`;
    const envelope = parseOvf(xml, 'a');
    expect(envelope.upstreamExportSource).toBe('Unknown');
    expect(envelope.exportSource).toBe('VMware');
  });

  it('reads a VMware system: hardware items, VMware configs, os type', () => {
    const [system] = parseOvf(VMWARE_OVF, 'a').systems;
    expect(system?.id).toBe('web-01');
    expect(system?.name).toBe('web-01');
    expect(system?.osType).toBe('rhel8_64Guest');
    expect(system?.systemTypes).toEqual(['vmx-19']);
    expect(system?.items.map((i) => i.resourceType)).toEqual([3, 4, 6, 17, 17, 10]);
    expect(system?.items[0]?.coresPerSocket).toBe('2');
    expect(system?.items[5]).toMatchObject({
      address: '00:50:56:aa:bb:01',
      connection: 'VM Network',
    });
    expect(system?.configs).toEqual([
      { key: 'firmware', value: 'efi' },
      { key: 'cpuHotAddEnabled', value: 'true' },
      { key: 'uefi.secureBoot.enabled', value: 'TRUE' },
    ]);
  });

  it('applies capacityAllocationUnits: byte * 2^30, byte * 2^20, KiloBytes, none (bytes)', () => {
    expect(parseOvf(VMWARE_OVF, 'a').disks.map((d) => d.capacityBytes)).toEqual([
      16 * 2 ** 30,
      2048 * 2 ** 20,
    ]);
    expect(parseOvf(XEN_OVF, 'a').disks[0]?.capacityBytes).toBe(4 * 2 ** 30);
    expect(parseOvf(VIRTUALBOX_OVF, 'a').disks[0]?.capacityBytes).toBe(10 * 2 ** 30);
  });

  it('pairs disks with files by fileRef, not by position', () => {
    const { disks } = parseOvf(COLLECTION_OVF, 'a');
    expect(disks.map((d) => [d.diskId, d.file?.href])).toEqual([
      ['d-app', 'app.vmdk'],
      ['d-db', 'db.vmdk'],
    ]);
  });

  it('keeps a disk without a file when there are fewer files than disks', () => {
    const { disks } = parseOvf(FEWER_FILES_OVF, 'a');
    expect(disks.map((d) => [d.diskId, d.file?.href])).toEqual([
      ['blank', undefined],
      ['data', 'only.vmdk'],
    ]);
  });

  it('reads the systems of a VirtualSystemCollection', () => {
    expect(parseOvf(COLLECTION_OVF, 'a').systems.map((s) => s.name)).toEqual(['app', 'db']);
  });

  it('reports an unresolved property placeholder as UnresolvedProperty naming the file and property', () => {
    const error = failure(UNRESOLVED_PROPERTY_OVF);
    expect(error.reason).toBe('UnresolvedProperty');
    expect(error.file).toBe('/ova/x.ovf');
    expect(error.message).toContain('\u0024{disk.size}');
  });

  it('tolerates a placeholder without value in a text field (kept as written); numbers still need one', () => {
    const envelope = parseOvf(TEXT_PLACEHOLDER_OVF, 'a');
    expect(envelope.networks[0]?.description).toBe('Owned by \u0024{vm.owner}');
    expect(envelope.systems[0]?.items[0]).toMatchObject({
      description: 'CPUs of \u0024{vm.owner}',
      virtualQuantity: 2n,
    });
    const quantity = failure(
      TEXT_PLACEHOLDER_OVF.replace(
        '<rasd:VirtualQuantity>2<',
        '<rasd:VirtualQuantity>\u0024{cpus}<',
      ),
    );
    expect(quantity.reason).toBe('UnresolvedProperty');
    expect(quantity.message).toBe(
      '/ova/x.ovf: <Item> VirtualQuantity refers to property \u0024{cpus}, which has no value',
    );
  });

  it('reports an OVF 0.9 descriptor as UnsupportedOvfVersion naming the file, instead of no VMs', () => {
    const error = failure(OVF_09);
    expect(error.reason).toBe('UnsupportedOvfVersion');
    expect(error.file).toBe('/ova/x.ovf');
    expect(error.message).toContain(
      '/ova/x.ovf: an OVF 0.9 descriptor (<Section xsi:type="ovf:DiskSection_Type">)',
    );
  });

  it('reads the default DeploymentOption, item configurations and disk parentRefs', () => {
    const envelope = parseOvf(DEPLOYMENT_OPTIONS_OVF, 'a');
    expect(envelope.defaultConfiguration).toBe('large');
    expect(envelope.systems[0]?.items.map((i) => i.configurations)).toEqual([
      ['large'],
      ['large'],
      ['small'],
      ['small'],
      [],
    ]);
    expect(envelope.disks.map((d) => [d.diskId, d.parentRef])).toEqual([
      ['d-base', ''],
      ['d-delta', 'd-base'],
    ]);
    expect(parseOvf(VMWARE_OVF, 'a').defaultConfiguration).toBeUndefined();
    const firstIsDefault = DEPLOYMENT_OPTIONS_OVF.replace(' ovf:default="true"', '');
    expect(parseOvf(firstIsDefault, 'a').defaultConfiguration).toBe('small');
  });

  it('resolves a property placeholder from the ProductSection default value', () => {
    const xml = UNRESOLVED_PROPERTY_OVF.replace(
      '<VirtualSystem ovf:id="templated"><Name>templated</Name>',
      '<VirtualSystem ovf:id="templated"><Name>templated</Name><ProductSection><Property ovf:key="disk.size" ovf:type="int" ovf:value="4096"/></ProductSection>',
    );
    expect(parseOvf(xml, 'a').disks[0]?.capacityBytes).toBe(4096);
  });

  it('reports malformed XML with its line as MalformedOvf', () => {
    const error = failure(MALFORMED_OVF);
    expect(error.reason).toBe('MalformedOvf');
    expect(error.message).toMatch(/^\/ova\/x\.ovf: malformed XML: .*line \d+/);
  });

  it('rejects a document whose root is not an Envelope', () => {
    expect(failure('<Appliance/>').message).toContain('the root element is <Appliance>');
  });

  it('rejects a capacity that is not an integer', () => {
    const error = failure(VMWARE_OVF.replace('ovf:capacity="16"', 'ovf:capacity="16GB"'));
    expect(error.reason).toBe('MalformedOvf');
    expect(error.message).toContain("ovf:capacity is not an integer: '16GB'");
  });
});

describe('unitBytes', () => {
  it.each([
    ['byte', 1],
    ['byte * 2^20', 2 ** 20],
    ['byte*2^30', 2 ** 30],
    ['byte * 1024', 1024],
    ['MegaBytes', 2 ** 20],
    ['KiloBytes', 1024],
    ['GigaBytes', 2 ** 30],
  ])('%s is %d bytes', (units, bytes) => {
    expect(unitBytes(units)).toBe(bytes);
  });

  it.each(['hertz * 10^6', 'byte * 2^x', 'bits', ''])('%s does not parse', (units) => {
    expect(unitBytes(units)).toBeUndefined();
  });
});
