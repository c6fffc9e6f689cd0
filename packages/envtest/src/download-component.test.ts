import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@ctrlkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { releaseBinaryUrl } from './download-component.js';
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { ChecksumMismatchError } from './errors/checksum-mismatch-error.js';
import { goArch, goOs } from './internal/platform.js';
import { resolveBinaries } from './resolve-binaries.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

const run = promisify(execFile);
const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('hex');
const binary = (name: string) => Buffer.from(`#!/bin/sh\necho ${name} fake\n`);
const binPath = (name: string) =>
  `/release/v${KUBERNETES_VERSION}/bin/${goOs()}/${goArch()}/${name}`;

/**
 * Serves Kubernetes' release layout under `/release`: `<binary>` and `<binary>.sha512` for
 * kube-scheduler and kube-controller-manager; `checksums` overrides a published SHA-512,
 * `missing` answers 404 for both files of a binary.
 */
async function serve(
  options: { checksums?: Record<string, string>; missing?: readonly string[] } = {},
) {
  const requests: string[] = [];
  const files = new Map<string, Buffer>();
  for (const name of ['kube-scheduler', 'kube-controller-manager']) {
    if (options.missing?.includes(name)) continue;
    files.set(binPath(name), binary(name));
    const published = options.checksums?.[name] ?? sha512(binary(name));
    files.set(`${binPath(name)}.sha512`, Buffer.from(published));
  }
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = files.get(req.url ?? '');
    if (body === undefined) {
      res.statusCode = 404;
      res.end('404 page not found\n');
      return;
    }
    res.setHeader('content-length', body.length);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/release`;
  return { url, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (_: object, message?: string) => {
    lines.push(message ?? '');
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

/** A cache folder with kube-apiserver and etcd of this version (built earlier). */
async function cachedCore(cacheDirectory: string): Promise<string> {
  const folder = join(cacheDirectory, `v${KUBERNETES_VERSION}`);
  await mkdir(folder, { recursive: true });
  for (const name of ['kube-apiserver', 'etcd']) {
    await writeFile(join(folder, name), binary(name));
    await chmod(join(folder, name), 0o755);
  }
  const record = {
    kubernetesVersion: KUBERNETES_VERSION,
    etcdVersion: ETCD_VERSION,
    goVersion: 'go',
    builtAt: 'x',
    buildMs: 1,
  };
  await writeFile(join(folder, 'build.json'), JSON.stringify(record));
  return folder;
}

const components = ['kube-scheduler', 'kube-controller-manager'] as const;

it("names Kubernetes' release binaries as dl.k8s.io does", () => {
  expect(
    releaseBinaryUrl('https://dl.k8s.io/release/', '1.37.2', 'linux', 'arm64', 'kube-scheduler'),
  ).toBe('https://dl.k8s.io/release/v1.37.2/bin/linux/arm64/kube-scheduler');
});

describe('resolveBinaries downloading the components', () => {
  let dir: string;
  let cacheDirectory: string;
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-components-'));
    cacheDirectory = join(dir, 'cache');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('downloads each binary with its published .sha512 checked, then finds them cached', async () => {
    const folder = await cachedCore(cacheDirectory);
    server = await serve();
    const logger = recordingLogger();
    const options = {
      components: [...components],
      cacheDirectory,
      kubernetesReleaseUrl: server.url,
      build: false,
      logger,
    };
    const found = await resolveBinaries(options, {});
    expect(found).toMatchObject({
      source: 'download',
      components: {
        'kube-scheduler': join(folder, 'kube-scheduler'),
        'kube-controller-manager': join(folder, 'kube-controller-manager'),
      },
      componentBuilds: {},
      componentDownloads: {
        'kube-scheduler': {
          kubernetesVersion: KUBERNETES_VERSION,
          url: `${server.url}${binPath('kube-scheduler').slice('/release'.length)}`,
          sha512: sha512(binary('kube-scheduler')),
        },
        'kube-controller-manager': { sha512: sha512(binary('kube-controller-manager')) },
      },
    });
    const { stdout } = await run(join(folder, 'kube-scheduler'));
    expect(stdout).toBe('kube-scheduler fake\n');
    expect((await readdir(folder)).sort()).toEqual([
      'build.json',
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kube-controller-manager.download.json',
      'kube-scheduler',
      'kube-scheduler.download.json',
    ]);
    expect(logger.lines).toContainEqual(expect.stringMatching(/^downloaded kube-scheduler /));

    const again = await resolveBinaries(options, {});
    expect(again).toMatchObject({ source: 'cache', componentDownloads: found.componentDownloads });
    expect(server.requests).toEqual(
      components.flatMap((c) => [`${binPath(c)}.sha512`, binPath(c)]),
    );
  });

  it('refuses a binary whose SHA-512 is not the published one, naming the file and both, and keeps nothing', async () => {
    const folder = await cachedCore(cacheDirectory);
    const wrong = sha512(Buffer.from('another build'));
    server = await serve({ checksums: { 'kube-scheduler': wrong } });
    const failure = resolveBinaries(
      {
        components: ['kube-scheduler'],
        cacheDirectory,
        kubernetesReleaseUrl: server.url,
        logger: recordingLogger(),
      },
      {},
    );
    const actual = sha512(binary('kube-scheduler'));
    await expect(failure).rejects.toSatisfy(
      (e) =>
        ChecksumMismatchError.isInstance(e) &&
        e.file === 'kube-scheduler' &&
        e.expectedSha512 === wrong &&
        e.actualSha512 === actual,
    );
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^kube-scheduler \\(from \\S+/kube-scheduler\\) does not match \\S+/kube-scheduler\\.sha512: expected sha512 ${wrong}, got ${actual}; nothing was kept`,
      ),
    );
    expect((await readdir(folder)).sort()).toEqual(['build.json', 'etcd', 'kube-apiserver']);
  });

  it('falls back to a build on a 404, printing the reason first', async () => {
    await cachedCore(cacheDirectory);
    server = await serve({ missing: ['kube-controller-manager'] });
    const logger = recordingLogger();
    // No Go on PATH: the build step fails at once, after the reason was printed; the
    // scheduler, which the server has, was downloaded before.
    const failure = resolveBinaries(
      { components: [...components], cacheDirectory, kubernetesReleaseUrl: server.url, logger },
      { PATH: join(dir, 'empty') },
    );
    await expect(failure).rejects.toSatisfy(
      (e) => BinariesMissingError.isInstance(e) && e.binaries.join() === 'kube-controller-manager',
    );
    await expect(failure).rejects.toThrow(/Go is not installed/);
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /^not downloaded: http:\/\/127\.0\.0\.1:\d+\/release\/v[\d.]+\/bin\/\w+\/\w+\/kube-controller-manager\.sha512 answered 404 \(no release binary for this version\); building kube-controller-manager from the Go modules instead$/,
      ),
    );
    const noBuild = resolveBinaries(
      {
        components: ['kube-controller-manager'],
        cacheDirectory,
        kubernetesReleaseUrl: server.url,
        build: false,
        logger,
      },
      {},
    );
    await expect(noBuild).rejects.toThrow(
      /building is off.*a download \(\S+kube-controller-manager\.sha512 answered 404/s,
    );
    const scheduler = await resolveBinaries(
      { components: ['kube-scheduler'], cacheDirectory, build: false, download: false, logger },
      {},
    );
    expect(scheduler.source).toBe('cache');
  });

  it('falls back when the host is not reachable', async () => {
    await cachedCore(cacheDirectory);
    const closed = await serve();
    await closed.close();
    const failure = resolveBinaries(
      {
        components: ['kube-scheduler'],
        cacheDirectory,
        kubernetesReleaseUrl: closed.url,
        build: false,
        logger: recordingLogger(),
      },
      {},
    );
    await expect(failure).rejects.toThrow(
      /a download \(http:\/\/127\.0\.0\.1:\d+\/\S+kube-scheduler\.sha512 is not reachable \(.*ECONNREFUSED/,
    );
  });

  it('does not download when CTRLKIT_ENVTEST_DOWNLOAD=false (the switch of the envtest archive)', async () => {
    await cachedCore(cacheDirectory);
    server = await serve();
    const failure = resolveBinaries(
      { components: ['kube-scheduler'], cacheDirectory, build: false, logger: recordingLogger() },
      { CTRLKIT_ENVTEST_DOWNLOAD: 'false', CTRLKIT_ENVTEST_KUBERNETES_RELEASE_URL: server.url },
    );
    await expect(failure).rejects.toThrow(/a download \(downloads are off/);
    expect(server.requests).toEqual([]);
    // The URL from the environment is used when downloads are on.
    const found = await resolveBinaries(
      { components: ['kube-scheduler'], cacheDirectory, build: false, logger: recordingLogger() },
      { CTRLKIT_ENVTEST_KUBERNETES_RELEASE_URL: server.url },
    );
    expect(found.source).toBe('download');
  });
});
