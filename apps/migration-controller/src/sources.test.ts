import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '@ctrlkit/core';
import type { Provider } from '@ctrlkit/plan-migration/api';
import { KubeVirtDestination } from '@ctrlkit/plan-migration/kubevirt';
import { VIRTUALBOX_OVF, VMWARE_OVF, writeCatalogFiles } from '@ctrlkit/plan-migration/testing';
import { toClient } from '@ctrlkit/runtime/client';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { simulatedSourceOptions, sourceWiring } from './sources.js';

const provider = (settings?: Record<string, string>, type = 'simulated'): Provider =>
  ({
    metadata: { name: 'src', namespace: 'ns', uid: 'u1' },
    spec: { type, ...(settings && { settings }) },
  }) as Provider;
const signal = new AbortController().signal;
const kubeConfig = new KubeConfig();
kubeConfig.loadFromOptions({
  clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
  users: [{ name: 'u' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});
const wire = (ovaCatalogPath = '/ova', destination: 'kubevirt' | 'configmap' = 'kubevirt') =>
  sourceWiring({ ovaCatalogPath, destination, client: toClient(kubeConfig) });

describe('source wiring', () => {
  it('a simulated provider gets an inventory from its settings (defaults: 4 VMs, 1 disk of 1024 MiB)', async () => {
    const wiring = wire();
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
    const wiring = wire();
    const a = wiring.sources(provider({ vms: '1' }))?.inventory;
    expect(wiring.sources(provider({ vms: '1' }))?.inventory).toBe(a);
    expect(wiring.sources(provider({ vms: '2' }))?.inventory).not.toBe(a);
  });

  it('bad settings: the inspector reports SettingsNotValid naming the setting, and there is no adapter', async () => {
    const wiring = wire();
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
    const wiring = wire();
    expect(wiring.sources(provider(undefined, 'vsphere'))).toBeUndefined();
    expect(wiring.plan.sources).toBe(wiring.sources);
  });

  it("each ova provider reads its own share's catalog under ovaCatalogPath; its inspector reports the scan", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctrlkit-wiring-'));
    try {
      const old = Date.now() - 60_000;
      await writeCatalogFiles(join(dir, 'nfs-a/exports/ova'), { 'web/web.ovf': VMWARE_OVF }, old);
      await writeCatalogFiles(join(dir, 'nfs-b/other'), { 'vbox/ubuntu.ovf': VIRTUALBOX_OVF }, old);
      const wiring = wire(dir);
      const ova = (url: string): Provider => {
        const p = provider(undefined, 'ova');
        return { ...p, spec: { ...p.spec, url } };
      };
      const a = ova('nfs-a:/exports/ova');
      const b = ova('nfs-b:/other');
      const names = async (p: Provider) =>
        (await wiring.sources(p)?.inventory.listVMs())?.map((v) => v.name);
      expect(await names(a)).toEqual(['web-01']);
      expect(await names(b)).toEqual(['ubuntu']);
      const conditions = await wiring.inspectors.ova?.(a, signal);
      expect(conditions?.map((c) => c.type)).toContain('Ready');
      const missing = await wiring.inspectors.ova?.(ova('nfs-c:/none'), signal);
      expect(missing?.map((c) => c.type)).toEqual(['ConnectionTestFailed']);
      const notNfs = ova('https://ova.example/x');
      expect(wiring.sources(notNfs)).toBeUndefined();
      expect((await wiring.inspectors.ova?.(notNfs, signal))?.map((c) => c.type)).toEqual([
        'UrlNotValid',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the destination is KubeVirt unless configmap is asked for; hooks run as Jobs', () => {
    const kubevirt = wire().plan;
    expect(kubevirt.hookRunner).toBeDefined();
    const plan = { metadata: { name: 'p', namespace: 'ns' }, spec: {} } as never;
    const made = kubevirt.destination?.({
      plan,
      migrationUID: '',
      migrationName: '',
      client: toClient(kubeConfig),
    });
    expect(made).toBeInstanceOf(KubeVirtDestination);
    expect(wire('/ova', 'configmap').plan.destination).toBeUndefined();
  });
});
