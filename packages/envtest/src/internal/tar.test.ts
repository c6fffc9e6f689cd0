import { execFile } from 'node:child_process';
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractTarGz } from './tar.js';

const run = promisify(execFile);

describe('extractTarGz', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-tar-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const format of ['gnu', 'pax', 'ustar']) {
    it(`flattens regular files of a ${format} archive, keeps execute bits, skips folders and links`, async () => {
      // A path over 100 characters needs a GNU long name, a pax record or the ustar prefix.
      const deep = join(dir, 'tree', 'controller-tools', 'envtest', 'a'.repeat(60), 'b'.repeat(40));
      await mkdir(deep, { recursive: true });
      await writeFile(join(deep, 'kube-apiserver'), 'x'.repeat(70_000));
      await chmod(join(deep, 'kube-apiserver'), 0o755);
      await writeFile(join(deep, 'README'), 'read me\n');
      await chmod(join(deep, 'README'), 0o644);
      await symlink('kube-apiserver', join(deep, 'link'));
      const archive = join(dir, 'a.tar.gz');
      await run('tar', [`--format=${format}`, '-czf', archive, '-C', join(dir, 'tree'), '.']);
      const out = join(dir, 'out');
      await mkdir(out);
      expect((await extractTarGz(archive, out)).sort()).toEqual(['README', 'kube-apiserver']);
      expect((await readdir(out)).sort()).toEqual(['README', 'kube-apiserver']);
      expect(await readFile(join(out, 'kube-apiserver'), 'utf8')).toBe('x'.repeat(70_000));
      expect((await stat(join(out, 'kube-apiserver'))).mode & 0o777).toBe(0o755);
      expect((await stat(join(out, 'README'))).mode & 0o777).toBe(0o644);
    });
  }

  it('throws on a header whose checksum is wrong', async () => {
    const header = Buffer.alloc(512);
    header.write('etcd', 0);
    header.write('0000644\0', 100);
    header.write('00000000001\0', 124);
    header.write('0000001\0', 148); // not the sum of the header's bytes
    header.write('0', 156);
    const archive = join(dir, 'bad.tar.gz');
    await writeFile(archive, gzipSync(Buffer.concat([header, Buffer.alloc(1536)])));
    await expect(extractTarGz(archive, dir)).rejects.toThrow(/checksum is 1, its bytes sum to/);
  });

  it('throws on an archive cut short, and on something that is not gzip', async () => {
    const tree = join(dir, 'tree');
    await mkdir(tree);
    await writeFile(join(tree, 'etcd'), Buffer.alloc(5_000, 1));
    const archive = join(dir, 'a.tar');
    await run('tar', ['-cf', archive, '-C', tree, 'etcd']);
    const cut = join(dir, 'cut.tar.gz');
    await writeFile(cut, gzipSync((await readFile(archive)).subarray(0, 2_048)));
    const out = join(dir, 'out');
    await mkdir(out);
    await expect(extractTarGz(cut, out)).rejects.toThrow(/unexpected end of the archive/);
    await expect(extractTarGz(archive, out)).rejects.toThrow(/incorrect header check/);
  });
});
