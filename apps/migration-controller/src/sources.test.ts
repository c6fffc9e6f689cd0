import type { Provider } from '@ctrlkit/plan-migration';
import { realClock } from '@ctrlkit/workqueue';
import { describe, expect, it } from 'vitest';
import { simulatedSourceOptions, sourceWiring } from './sources.js';

const provider = (settings?: Record<string, string>, type = 'simulated'): Provider =>
  ({
    metadata: { name: 'src', namespace: 'ns', uid: 'u1' },
    spec: { type, ...(settings && { settings }) },
  }) as Provider;
const signal = new AbortController().signal;

describe('source wiring', () => {
  it('a simulated provider gets an inventory from its settings (defaults: 4 VMs, 1 disk of 1024 MiB)', async () => {
    const wiring = sourceWiring({ ovaCatalogPath: '/ova' });
    const vms = await wiring.sources(provider())?.inventory.listVMs();
    expect(vms?.map((v) => v.id)).toEqual(['vm-0', 'vm-1', 'vm-2', 'vm-3']);
    expect(vms?.[0]?.disks).toEqual([{ id: 'disk-0', capacityMiB: 1024, datastore: 'ds-1' }]);
    const options = simulatedSourceOptions(
      provider({ vms: '2', disks: '3', diskMiB: '10', copyRateMiBPerSecond: '5' }),
      realClock,
    );
    expect(options.vms.map((v) => v.disks.length)).toEqual([3, 3]);
    expect(options.copyRateMiBPerSecond).toBe(5);
  });

  it('keeps one source per provider while its settings stay the same', () => {
    const wiring = sourceWiring({ ovaCatalogPath: '/ova' });
    const a = wiring.sources(provider({ vms: '1' }))?.inventory;
    expect(wiring.sources(provider({ vms: '1' }))?.inventory).toBe(a);
    expect(wiring.sources(provider({ vms: '2' }))?.inventory).not.toBe(a);
  });

  it('bad settings: the inspector reports SettingsNotValid naming the setting, and there is no adapter', async () => {
    const wiring = sourceWiring({ ovaCatalogPath: '/ova' });
    const bad = provider({ vms: 'many' });
    expect(await wiring.inspectors.simulated?.(bad, signal)).toEqual([
      expect.objectContaining({
        type: 'SettingsNotValid',
        reason: 'NotValid',
        category: 'Critical',
        message: expect.stringContaining('settings.vms'),
      }),
    ]);
    expect(wiring.sources(bad)).toBeUndefined();
    expect(await wiring.inspectors.simulated?.(provider({ colour: 'blue' }), signal)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('settings.colour') }),
    ]);
    expect(await wiring.inspectors.simulated?.(provider(), signal)).toEqual([]);
  });

  it('types not wired have no adapter; the PlanController gets the same sources', () => {
    const wiring = sourceWiring({ ovaCatalogPath: '/ova' });
    expect(wiring.sources(provider(undefined, 'vsphere'))).toBeUndefined();
    expect(wiring.plan.sources).toBe(wiring.sources);
  });
});
