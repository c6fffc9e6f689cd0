import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  access,
  chmod,
  constants,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@ctrlkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveInvalidError } from './errors/archive-invalid-error.js';
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { ChecksumMismatchError } from './errors/checksum-mismatch-error.js';
import { goArch, goOs } from './internal/platform.js';
import { resolveBinaries } from './resolve-binaries.js';
import { KUBERNETES_VERSION } from './versions.js';

const run = promisify(execFile);
const ARCHIVE = `envtest-v${KUBERNETES_VERSION}-${goOs()}-${goArch()}.tar.gz`;

/** A tarball in controller-tools' layout (`controller-tools/envtest/<binary>`), made by the system tar. */
async function makeArchive(
  dir: string,
  names = ['etcd', 'kube-apiserver', 'kubectl'],
): Promise<Buffer> {
  const root = join(dir, 'tree');
  await mkdir(join(root, 'controller-tools', 'envtest'), { recursive: true });
  for (const name of names) {
    const path = join(root, 'controller-tools', 'envtest', name);
    await writeFile(path, `#!/bin/sh\necho ${name} fake\n`);
    await chmod(path, 0o755);
  }
  const out = join(dir, 'archive.tar.gz');
  await run('tar', ['-czf', out, '-C', root, 'controller-tools']);
  return readFile(out);
}

const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('hex');

/** Serves `/envtest-releases.yaml` (an index in controller-tools' format) and `/download/<archive>`. */
async function serve(archive: Buffer, hash: string, release = `v${KUBERNETES_VERSION}`) {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/envtest-releases.yaml') {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      res.end(
        `releases:\n  ${release}:\n    ${ARCHIVE}:\n      hash: ${hash}\n      selfLink: ${base}/download/${ARCHIVE}\n` +
          `    envtest-${release}-plan9-amd64.tar.gz:\n      hash: 00\n      selfLink: ${base}/nothing\n`,
      );
    } else if (req.url === `/download/${ARCHIVE}`) {
      res.setHeader('content-length', archive.length);
      res.end(archive);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/envtest-releases.yaml`;
  return { url, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (_: object, message?: string) => {
    lines.push(message ?? '');
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

describe('resolveBinaries downloading the envtest release archive', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-download-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('downloads, checks and extracts the archive into the cache, then finds it there', async () => {
    const archive = await makeArchive(dir);
    server = await serve(archive, sha512(archive));
    const cacheDirectory = join(dir, 'cache');
    const logger = recordingLogger();
    const options = { cacheDirectory, releaseIndexUrl: server.url, build: false, logger };
    const found = await resolveBinaries(options, {});
    const folder = join(cacheDirectory, `v${KUBERNETES_VERSION}`);
    expect(found).toMatchObject({
      source: 'download',
      directory: folder,
      kubeApiServer: join(folder, 'kube-apiserver'),
      download: {
        archive: ARCHIVE,
        sha512: sha512(archive),
        kubernetesVersion: KUBERNETES_VERSION,
      },
      build: undefined,
    });
    await access(found.kubeApiServer, constants.X_OK);
    const { stdout } = await run(found.etcd);
    expect(stdout).toBe('etcd fake\n');
    expect((await readdir(cacheDirectory)).sort()).toEqual([`v${KUBERNETES_VERSION}`]);
    expect((await readdir(folder)).sort()).toEqual([
      'download.json',
      'etcd',
      'kube-apiserver',
      'kubectl',
    ]);
    expect(logger.lines.some((l) => l.startsWith(`downloaded ${ARCHIVE}`))).toBe(true);

    const again = await resolveBinaries(options, {});
    expect(again).toMatchObject({ source: 'cache', download: found.download });
    expect(server.requests).toEqual(['/envtest-releases.yaml', `/download/${ARCHIVE}`]);
  });

  it('refuses an archive whose sha512 differs, naming the file and both checksums, and keeps nothing', async () => {
    const archive = await makeArchive(dir);
    const wrong = sha512(Buffer.from('something else'));
    server = await serve(archive, wrong);
    const cacheDirectory = join(dir, 'cache');
    const failure = resolveBinaries(
      { cacheDirectory, releaseIndexUrl: server.url, logger: recordingLogger() },
      {},
    );
    await expect(failure).rejects.toSatisfy(
      (e) =>
        ChecksumMismatchError.isInstance(e) &&
        e.reason === 'ChecksumMismatch' &&
        e.file === ARCHIVE &&
        e.expectedSha512 === wrong &&
        e.actualSha512 === sha512(archive),
    );
    await expect(failure).rejects.toThrow(
      new RegExp(`${ARCHIVE}.*expected sha512 ${wrong}, got ${sha512(archive)}`),
    );
    expect(await readdir(cacheDirectory)).toEqual([]);
  });

  it('refuses a corrupt archive with a matching checksum and keeps nothing', async () => {
    const corrupt = Buffer.concat([
      (await makeArchive(dir)).subarray(0, 200),
      Buffer.alloc(300, 7),
    ]);
    server = await serve(corrupt, sha512(corrupt));
    const cacheDirectory = join(dir, 'cache');
    const failure = resolveBinaries(
      { cacheDirectory, releaseIndexUrl: server.url, logger: recordingLogger() },
      {},
    );
    await expect(failure).rejects.toSatisfy(
      (e) => ArchiveInvalidError.isInstance(e) && e.file === ARCHIVE,
    );
    await expect(failure).rejects.toThrow(new RegExp(`${ARCHIVE}: cannot be extracted`));
    expect(await readdir(cacheDirectory)).toEqual([]);
  });

  it('refuses an archive without kube-apiserver', async () => {
    const archive = await makeArchive(dir, ['etcd', 'kubectl']);
    server = await serve(archive, sha512(archive));
    const cacheDirectory = join(dir, 'cache');
    const failure = resolveBinaries(
      { cacheDirectory, releaseIndexUrl: server.url, logger: recordingLogger() },
      {},
    );
    await expect(failure).rejects.toThrow(/holds no kube-apiserver \(it has etcd, kubectl\)/);
    expect(await readdir(cacheDirectory)).toEqual([]);
  });

  it('says why it did not download: no release for this version', async () => {
    const archive = await makeArchive(dir);
    server = await serve(archive, sha512(archive), 'v1.0.0');
    const failure = resolveBinaries(
      {
        cacheDirectory: join(dir, 'cache'),
        releaseIndexUrl: server.url,
        build: false,
        logger: recordingLogger(),
      },
      {},
    );
    await expect(failure).rejects.toSatisfy((e) => BinariesMissingError.isInstance(e));
    await expect(failure).rejects.toThrow(
      new RegExp(
        `a download \\(the release index .* has no ${ARCHIVE} \\(no release for this version\\)\\)`,
      ),
    );
  });

  it('says why it did not download: the index is not reachable', async () => {
    const closed = await serve(Buffer.alloc(0), '');
    await closed.close();
    const failure = resolveBinaries(
      {
        cacheDirectory: join(dir, 'cache'),
        releaseIndexUrl: closed.url,
        build: false,
        logger: recordingLogger(),
      },
      {},
    );
    await expect(failure).rejects.toThrow(
      /the release index http:\/\/127\.0\.0\.1:\d+\/\S+ is not reachable \(.*ECONNREFUSED/,
    );
  });

  it('prints the reason before building with Go', async () => {
    const archive = await makeArchive(dir);
    server = await serve(archive, sha512(archive), 'v1.0.0');
    const logger = recordingLogger();
    // No Go on PATH: the build step fails at once, after the reason was printed.
    const failure = resolveBinaries(
      { cacheDirectory: join(dir, 'cache'), releaseIndexUrl: server.url, logger },
      { PATH: join(dir, 'empty') },
    );
    await expect(failure).rejects.toThrow(/Go is not installed/);
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /^not downloaded: .*no release for this version.*; building from the Go modules instead$/,
      ),
    );
  });

  it('does not download when CTRLKIT_ENVTEST_DOWNLOAD=false (or download: false)', async () => {
    const archive = await makeArchive(dir);
    server = await serve(archive, sha512(archive));
    const cacheDirectory = join(dir, 'cache');
    const env = { CTRLKIT_ENVTEST_DOWNLOAD: 'false', CTRLKIT_ENVTEST_RELEASE_INDEX: server.url };
    const failure = resolveBinaries(
      { cacheDirectory, build: false, logger: recordingLogger() },
      env,
    );
    await expect(failure).rejects.toThrow(/a download \(downloads are off/);
    const off = resolveBinaries(
      {
        cacheDirectory,
        build: false,
        download: false,
        releaseIndexUrl: server.url,
        logger: recordingLogger(),
      },
      {},
    );
    await expect(off).rejects.toThrow(/downloads are off/);
    expect(server.requests).toEqual([]);
    // The index URL from the environment is used when downloads are on.
    const found = await resolveBinaries(
      { cacheDirectory, build: false, logger: recordingLogger() },
      { CTRLKIT_ENVTEST_RELEASE_INDEX: server.url },
    );
    expect(found.source).toBe('download');
  });
});
