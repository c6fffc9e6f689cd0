import { rm } from 'node:fs/promises';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { Provider } from '../api/provider.js';
import { Conditions } from '../conditions.js';
import { inspectOvaProvider } from './inspect-provider.js';
import { OvaInventory } from './inventory.js';
import { OvaError } from './ova-error.js';
import { OvaSource } from './ova-source.js';
import { makeCatalogDir, writeCatalogFiles } from './testing/catalog-folder.js';
import {
  MALFORMED_OVF,
  OVF_09,
  UNRESOLVED_PROPERTY_OVF,
  VIRTUALBOX_OVF,
  VMWARE_OVF,
} from './testing/ovf-fixtures.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const provider = (type = 'ova'): Provider =>
  ({
    metadata: { name: 'ova', namespace: 'konveyor' },
    spec: { type, url: 'nfs.example:/exports/ova' },
  }) as Provider;

describe('inspectOvaProvider', () => {
  it('a readable catalog: connection tested, inventory created, Ready', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(dir, { 'a.ovf': VMWARE_OVF, 'b.ovf': VIRTUALBOX_OVF }, NOW - 60_000);
    const result = await inspectOvaProvider(provider(), {
      catalogPath: dir,
      clock: new FakeClock(NOW),
    });
    expect(result.phase).toBe('Ready');
    expect(result.catalog?.vms).toHaveLength(2);
    expect(result.conditions.map((c) => [c.type, c.category, c.reason])).toEqual([
      ['ConnectionTestSucceeded', 'Required', 'Tested'],
      ['InventoryCreated', 'Advisory', 'Completed'],
      ['Ready', 'Required', undefined],
    ]);
    expect(result.conditions[1]?.message).toBe(
      'The inventory has been loaded: 2 VMs from 2 appliance files.',
    );
  });

  it('problem files: a Warn condition per kind naming each file, the provider still Ready', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(
      dir,
      {
        'good.ovf': VMWARE_OVF,
        'bad/broken.ovf': MALFORMED_OVF,
        'templated.ovf': UNRESOLVED_PROPERTY_OVF,
        'empty-archive.ova': [{ name: 'disk.vmdk', content: 'x' }],
        'old/legacy.ovf': OVF_09,
      },
      NOW - 60_000,
    );
    const clock = new FakeClock(NOW);
    const result = await inspectOvaProvider(provider(), { catalogPath: dir, clock });
    const byType = new Map(result.conditions.map((c) => [c.type, c]));
    expect(byType.get('ApplianceMalformed')).toMatchObject({
      category: 'Warn',
      reason: 'Malformed',
      items: ['bad/broken.ovf'],
    });
    expect(byType.get('ApplianceMalformed')?.message).toMatch(
      /^1 appliance file\(s\) malformed or unreadable, their VMs are not in the inventory: bad\/broken\.ovf: malformed XML: .*line \d+/,
    );
    expect(byType.get('AppliancePropertyUnresolved')).toMatchObject({
      reason: 'NotSet',
      items: ['templated.ovf'],
    });
    expect(byType.get('AppliancePropertyUnresolved')?.message).toContain('\u0024{disk.size}');
    expect(byType.get('ApplianceDescriptorNotFound')).toMatchObject({
      reason: 'NotFound',
      items: ['empty-archive.ova'],
    });
    expect(byType.get('ApplianceVersionNotSupported')).toMatchObject({
      category: 'Warn',
      reason: 'NotSupported',
      items: ['old/legacy.ovf'],
    });
    expect(byType.get('ApplianceVersionNotSupported')?.message).toContain(
      '1 appliance file(s) in OVF 0.9 (not read), their VMs are not in the inventory: old/legacy.ovf: an OVF 0.9 descriptor',
    );
    expect(byType.has('Ready')).toBe(true);
    // The caller puts them on Provider.status with the package's Conditions: none is a blocker.
    const conditions = new Conditions([], clock);
    conditions.setCondition(...result.conditions);
    expect(conditions.hasBlockerCondition()).toBe(false);
  });

  it('a missing catalog folder: ConnectionTestFailed, Critical', async () => {
    const dir = await makeCatalogDir();
    await rm(dir, { recursive: true });
    const result = await inspectOvaProvider(provider(), { catalogPath: dir });
    expect(result.phase).toBe('ConnectionFailed');
    expect(result.catalog).toBeUndefined();
    expect(result.conditions).toHaveLength(1);
    expect(result.conditions[0]).toMatchObject({
      type: 'ConnectionTestFailed',
      status: 'True',
      reason: 'Tested',
      category: 'Critical',
    });
    expect(result.conditions[0]?.message).toContain(dir);
  });

  it('scans with the inventory the adapter shares (the README wiring)', async () => {
    const dir = await makeCatalogDir();
    const clock = new FakeClock(NOW);
    const inventory = new OvaInventory({ catalogPath: dir, clock, rescanAfterMs: 60_000 });
    const ova = new OvaSource({ inventory });
    expect(await ova.inventory.listVMs()).toEqual([]);
    await writeCatalogFiles(dir, { 'a.ovf': VMWARE_OVF }, NOW - 60_000);
    // The check forces a rescan; the adapter then reads the same, fresh scan.
    const { catalog } = await inspectOvaProvider(provider(), { inventory });
    expect(catalog?.vms.map((vm) => vm.name)).toEqual(['web-01']);
    expect((await ova.inventory.findVM({ name: 'web-01' }))?.id).toBe(catalog?.vms[0]?.id);
  });

  it('rejects a provider that is not of type ova', async () => {
    const error = await inspectOvaProvider(provider('vsphere')).catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && error.reason).toBe('NotSupported');
  });
});
