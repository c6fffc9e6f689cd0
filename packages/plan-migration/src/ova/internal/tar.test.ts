import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OvaError } from '../ova-error.js';
import { writeTar } from '../testing/tar-writer.js';
import { readFirstTarEntry } from './tar.js';

async function archive(bytes: Uint8Array): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'ctrlkit-tar-')), 'a.ova');
  await writeFile(path, bytes);
  return path;
}

const isOvf = (name: string) => name.toLowerCase().endsWith('.ovf');

describe('readFirstTarEntry', () => {
  it('returns the first matching entry, skipping entries before it', async () => {
    const path = await archive(
      writeTar([
        { name: 'disk1.vmdk', content: new Uint8Array(1500).fill(7) },
        { name: 'vm.OVF', content: '<Envelope/>' },
        { name: 'other.ovf', content: 'second' },
      ]),
    );
    const found = await readFirstTarEntry(path, isOvf);
    expect(found?.entry.name).toBe('vm.OVF');
    expect(found?.entry.offset).toBe(512 + 3 * 512 + 512); // header, 1500 bytes in 3 blocks, header
    expect(found?.content.toString()).toBe('<Envelope/>');
  });

  it('applies pax path records for names longer than 100 bytes', async () => {
    const long = `${'d'.repeat(120)}/appliance.ovf`;
    const path = await archive(writeTar([{ name: long, content: 'x' }]));
    expect((await readFirstTarEntry(path, isOvf))?.entry.name).toBe(long);
  });

  it('returns undefined when no entry matches', async () => {
    const path = await archive(writeTar([{ name: 'disk.vmdk', content: 'x' }]));
    expect(await readFirstTarEntry(path, isOvf)).toBeUndefined();
  });

  it('rejects a file that is not a tar archive with MalformedArchive', async () => {
    const path = await archive(Buffer.from('<Envelope>'.repeat(100)));
    const error = await readFirstTarEntry(path, isOvf).catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && error.reason).toBe('MalformedArchive');
    expect((error as Error).message).toContain('bad header checksum');
  });

  it('rejects an entry cut short with MalformedArchive', async () => {
    const whole = writeTar([{ name: 'vm.ovf', content: 'y'.repeat(2000) }]);
    const path = await archive(whole.subarray(0, 1024));
    const error = await readFirstTarEntry(path, isOvf).catch((e: unknown) => e);
    expect(OvaError.isInstance(error) && error.reason).toBe('MalformedArchive');
  });
});
