import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { OvaError } from './ova-error.js';
import { listCatalog, readAppliance } from './scan.js';
import { makeCatalogDir, writeCatalogFiles } from './testing/catalog-folder.js';
import { VMWARE_OVF } from './testing/ovf-fixtures.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const OLD = NOW - 60_000;

describe('listCatalog', () => {
  it('finds *.ova to depth 2 and *.ovf to depth 3, .ova first, in path order', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(
      dir,
      {
        'b.ova': [{ name: 'b.ovf', content: VMWARE_OVF }],
        'a/c.OVA': [{ name: 'c.ovf', content: VMWARE_OVF }],
        'a/b/too-deep.ova': [{ name: 'd.ovf', content: VMWARE_OVF }],
        'top.ovf': VMWARE_OVF,
        'a/b/deep.ovf': VMWARE_OVF,
        'a/b/c/too-deep.ovf': VMWARE_OVF,
        'notes.txt': 'x',
      },
      OLD,
    );
    const files = await listCatalog(dir, new FakeClock(NOW));
    expect(files.map((f) => [f.path.slice(dir.length + 1), f.kind])).toEqual([
      ['a/c.OVA', 'ova'],
      ['b.ova', 'ova'],
      ['a/b/deep.ovf', 'ovf'],
      ['top.ovf', 'ovf'],
    ]);
    expect(files.every((f) => f.complete)).toBe(true);
  });

  it('marks files changed in the last 30 s, and empty files, incomplete', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(dir, { 'young.ovf': VMWARE_OVF }, NOW - 29_000);
    await writeCatalogFiles(dir, { 'empty.ovf': '' }, OLD);
    await writeCatalogFiles(dir, { 'old.ovf': VMWARE_OVF }, NOW - 31_000);
    const clock = new FakeClock(NOW);
    const complete = async () =>
      Object.fromEntries(
        (await listCatalog(dir, clock)).map((f) => [f.path.slice(dir.length + 1), f.complete]),
      );
    expect(await complete()).toEqual({ 'empty.ovf': false, 'old.ovf': true, 'young.ovf': false });
    clock.step(2_000);
    expect(await complete()).toEqual({ 'empty.ovf': false, 'old.ovf': true, 'young.ovf': true });
  });

  it('rejects a missing catalog folder with CatalogNotFound', async () => {
    const dir = await makeCatalogDir();
    await rm(dir, { recursive: true });
    const error = await listCatalog(dir, new FakeClock(NOW)).catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && error.reason).toBe('CatalogNotFound');
    expect((error as Error).message).toContain(dir);
  });
});

describe('readAppliance', () => {
  it('reads the first *.ovf inside an .ova', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(
      dir,
      {
        'x.ova': [
          { name: 'disk.vmdk', content: 'data' },
          { name: 'x.ovf', content: VMWARE_OVF },
        ],
      },
      OLD,
    );
    const envelope = await readAppliance({ path: join(dir, 'x.ova'), kind: 'ova' });
    expect(envelope.systems.map((s) => s.name)).toEqual(['web-01']);
  });

  it('rejects an .ova without a descriptor with OvfNotFound naming the file', async () => {
    const dir = await makeCatalogDir();
    await writeCatalogFiles(dir, { 'x.ova': [{ name: 'disk.vmdk', content: 'data' }] }, OLD);
    const path = join(dir, 'x.ova');
    const error = await readAppliance({ path, kind: 'ova' }).catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && [error.reason, error.file]).toEqual(['OvfNotFound', path]);
  });
});
