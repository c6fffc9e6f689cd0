import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Provider } from '../api/provider.js';
import { OvaProviderCatalogs, parseNfsShare } from './provider-catalogs.js';
import { makeCatalogDir, writeCatalogFiles } from './testing/catalog-folder.js';
import { VIRTUALBOX_OVF, VMWARE_OVF } from './testing/ovf-fixtures.js';

const provider = (name: string, url: string): Provider =>
  ({ metadata: { name, namespace: 'ns', uid: name }, spec: { type: 'ova', url } }) as Provider;

describe('parseNfsShare', () => {
  it('splits server:/path and rejects anything else', () => {
    expect(parseNfsShare('nfs.example.com:/exports/ova')).toEqual({
      server: 'nfs.example.com',
      path: '/exports/ova',
    });
    for (const url of [undefined, '', '/exports/ova', 'nfs:exports', ':/x', 'a/b:/x']) {
      expect([url, parseNfsShare(url)]).toEqual([url, undefined]);
    }
  });
});

describe('OvaProviderCatalogs', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('gives each Provider the catalog of its own share: two Providers, two sets of VMs', async () => {
    const root = await makeCatalogDir();
    dirs.push(root);
    const old = Date.now() - 60_000;
    await writeCatalogFiles(
      join(root, 'nfs-a.example/exports/ova'),
      { 'web/web.ovf': VMWARE_OVF },
      old,
    );
    await writeCatalogFiles(
      join(root, 'nfs-b.example/data/appliances'),
      { 'vbox/ubuntu.ovf': VIRTUALBOX_OVF },
      old,
    );
    const catalogs = new OvaProviderCatalogs({ root });
    const a = catalogs.forProvider(provider('a', 'nfs-a.example:/exports/ova'));
    const b = catalogs.forProvider(provider('b', 'nfs-b.example:/data/appliances'));
    expect(a?.catalogPath).toBe(join(root, 'nfs-a.example/exports/ova'));
    expect(b?.catalogPath).toBe(join(root, 'nfs-b.example/data/appliances'));
    expect((await a?.inventory.listVMs())?.map((v) => v.name)).toEqual(['web-01']);
    expect((await b?.inventory.listVMs())?.map((v) => v.name)).toEqual(['ubuntu']);
    // the source adapter reads the same catalog
    expect((await b?.source.inventory.listVMs())?.map((v) => v.name)).toEqual(['ubuntu']);
    // a second Provider on the same share shares the inventory; the same Provider gets it again
    expect(catalogs.forProvider(provider('a2', 'nfs-a.example:/exports/ova'))).toBe(a);
    expect(catalogs.forProvider(provider('a', 'nfs-a.example:/exports/ova'))).toBe(a);
  });

  it('has no catalog for a URL that is not server:/path or climbs out of its folder', async () => {
    const root = await makeCatalogDir();
    dirs.push(root);
    await mkdir(join(root, 'x'), { recursive: true });
    const catalogs = new OvaProviderCatalogs({ root });
    expect(catalogs.forProvider(provider('p', 'https://vcenter/sdk'))).toBeUndefined();
    expect(catalogs.forProvider(provider('p', 'nfs:/../../etc'))).toBeUndefined();
    expect(() => new OvaProviderCatalogs({ root: 'relative' })).toThrow(
      expect.objectContaining({ field: 'root' }),
    );
  });
});
