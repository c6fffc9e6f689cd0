import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import type { InventoryVM } from './adapter.js';
import type { ProviderType } from './api/provider.js';
import { BaseMigrator, inventoryById, UNSUPPORTED_PHASES } from './base-migrator.js';
import { migrationSettings } from './settings.js';
import { SimulatedSource } from './simulated-source.js';
import { PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const windows = (id: string, shared = false): InventoryVM => ({
  id,
  name: id,
  powerState: 'On',
  networks: [],
  guestOS: 'windows2019srv_64Guest',
  disks: [{ id: 'd', capacityMiB: 10, datastore: 'ds', ...(shared && { shared: true }) }],
});

/** The cold itinerary of VM `w` for `sourceType`, with the inventory threaded in (as the controller does). */
async function itinerary(
  sourceType: ProviderType,
  options: { inspection?: boolean; shared?: boolean } = {},
) {
  const source = new SimulatedSource({
    clock: new FakeClock(T0),
    vms: [windows('w', options.shared)],
  });
  const plan = {
    metadata: { name: 'p', namespace: 'ns' },
    spec: {
      provider: { source: { name: 's' }, destination: { name: 'd' } },
      targetNamespace: 't',
      map: { network: { name: 'n' } },
      vms: [{ id: 'w' }],
    },
  };
  const migrator = new BaseMigrator({
    plan,
    sourceType,
    builder: source,
    clock: new FakeClock(T0),
    settings: migrationSettings(),
    inventory: await inventoryById(source),
    ...(options.inspection && { runPreflightInspection: true }),
  });
  return migrator
    .itinerary({ id: 'w' })
    .list()
    .map((s) => s.name);
}

describe('itineraries per source, with the inventory', () => {
  it('the inventory reaches the predicates: vSphere shared disks copy through virt-v2v', async () => {
    expect(await itinerary('vsphere', { shared: true })).toContain('CopyDisksVirtV2V');
    expect(await itinerary('vsphere')).not.toContain('CopyDisksVirtV2V');
  });

  it('no source gets a phase nothing performs: Windows reboots, preflight inspection, OpenStack snapshots', async () => {
    for (const type of ['simulated', 'ova', 'vsphere', 'openstack', 'hyperv'] as const) {
      const names = await itinerary(type, { inspection: true });
      for (const phase of UNSUPPORTED_PHASES)
        expect(names, `${type}: ${phase}`).not.toContain(phase);
    }
    expect([...UNSUPPORTED_PHASES]).toEqual([
      'WaitForGuestReboots',
      'PreflightInspection',
      'ConvertOpenstackSnapshot',
    ]);
  });

  it.each(['simulated', 'ova'] as const)(
    'a Windows VM on a %s source: no reboot wait in the pipeline; conversion steps as the source needs',
    async (sourceType) => {
      const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, sourceType });
      const vm = h.inventory[0];
      if (vm) vm.guestOS = 'windows';
      h.addMigration();
      await h.reconcile();
      const steps = h.vm('vm-0').pipeline.map((s) => s.name);
      expect(steps).not.toContain('WaitForGuestReboots');
      expect(steps.includes('ImageConversion')).toBe(sourceType === 'ova');
      if (sourceType === 'simulated') {
        await h.runToEnd();
        expect(h.planConditions()).toContain('Succeeded');
      }
    },
  );
});
