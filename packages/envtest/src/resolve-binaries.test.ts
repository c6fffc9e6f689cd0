import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noopLogger } from '@ctrlkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GO_MODULES_DIRECTORY } from './build.js';
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { EnvtestError } from './errors/envtest-error.js';
import { goArch, goOs } from './internal/platform.js';
import { setupEnvtestStoreRoots } from './internal/setup-envtest-store.js';
import { resolveBinaries } from './resolve-binaries.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

async function fakeBinaries(directory: string, names = ['kube-apiserver', 'etcd']): Promise<void> {
  await mkdir(directory, { recursive: true });
  for (const name of names) {
    await writeFile(join(directory, name), '#!/bin/sh\n');
    await chmod(join(directory, name), 0o755);
  }
}

describe('resolveBinaries', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-binaries-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses KUBEBUILDER_ASSETS first, the setup-envtest convention', async () => {
    await fakeBinaries(join(dir, 'assets'));
    const found = await resolveBinaries(
      { logger: noopLogger },
      { KUBEBUILDER_ASSETS: join(dir, 'assets') },
    );
    expect(found).toMatchObject({
      source: 'assets',
      directory: join(dir, 'assets'),
      kubeApiServer: join(dir, 'assets', 'kube-apiserver'),
      etcd: join(dir, 'assets', 'etcd'),
    });
  });

  it('does not fall back when KUBEBUILDER_ASSETS lacks a binary', async () => {
    await fakeBinaries(join(dir, 'assets'), ['etcd']);
    const failure = resolveBinaries(
      { logger: noopLogger },
      { KUBEBUILDER_ASSETS: join(dir, 'assets') },
    );
    await expect(failure).rejects.toThrow(/KUBEBUILDER_ASSETS=.* lacks kube-apiserver/);
    await expect(failure).rejects.toSatisfy((e) => BinariesMissingError.isInstance(e));
  });

  it('uses the cache when its build record matches the versions', async () => {
    const cached = join(dir, 'cache', `v${KUBERNETES_VERSION}`);
    await fakeBinaries(cached);
    const record = {
      kubernetesVersion: KUBERNETES_VERSION,
      etcdVersion: ETCD_VERSION,
      goVersion: 'go1.26.8',
      builtAt: 'x',
      buildMs: 1,
    };
    await writeFile(join(cached, 'build.json'), JSON.stringify(record));
    const found = await resolveBinaries(
      { cacheDirectory: join(dir, 'cache'), logger: noopLogger, download: false },
      {},
    );
    expect(found).toMatchObject({ source: 'cache', directory: cached, build: record });
  });

  it('ignores a cache folder of other versions and, with build: false, says both ways out', async () => {
    const cached = join(dir, 'cache', `v${KUBERNETES_VERSION}`);
    await fakeBinaries(cached);
    await writeFile(
      join(cached, 'build.json'),
      JSON.stringify({ kubernetesVersion: KUBERNETES_VERSION, etcdVersion: '3.0.0' }),
    );
    const failure = resolveBinaries(
      { cacheDirectory: join(dir, 'cache'), build: false, logger: noopLogger, download: false },
      {},
    );
    await expect(failure).rejects.toSatisfy(
      (e) => BinariesMissingError.isInstance(e) && EnvtestError.isInstance(e),
    );
    await expect(failure).rejects.toThrow(/KUBEBUILDER_ASSETS.*install Go/s);
  });

  it('without Go and without binaries, names KUBEBUILDER_ASSETS and Go', async () => {
    const failure = resolveBinaries(
      { cacheDirectory: join(dir, 'cache'), download: false, logger: noopLogger },
      { PATH: join(dir, 'empty') },
    );
    await expect(failure).rejects.toSatisfy((e) => BinariesMissingError.isInstance(e));
    await expect(failure).rejects.toThrow(
      /Go is not installed.*set KUBEBUILDER_ASSETS.*install Go/s,
    );
  });
});

describe('resolveBinaries with components', () => {
  let dir: string;
  const coreRecord = {
    kubernetesVersion: KUBERNETES_VERSION,
    etcdVersion: ETCD_VERSION,
    goVersion: 'go1.26.8',
    builtAt: 'x',
    buildMs: 1,
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-binaries-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('requires each requested component in KUBEBUILDER_ASSETS, naming the missing one', async () => {
    await fakeBinaries(join(dir, 'assets'), ['kube-apiserver', 'etcd', 'kube-scheduler']);
    const env = { KUBEBUILDER_ASSETS: join(dir, 'assets') };
    const found = await resolveBinaries(
      { components: ['kube-scheduler'], logger: noopLogger },
      env,
    );
    expect(found.components).toEqual({ 'kube-scheduler': join(dir, 'assets', 'kube-scheduler') });
    const failure = resolveBinaries(
      { components: ['kube-scheduler', 'kube-controller-manager'], logger: noopLogger },
      env,
    );
    await expect(failure).rejects.toSatisfy(
      (e) =>
        BinariesMissingError.isInstance(e) &&
        e.binaries.length === 1 &&
        e.binaries[0] === 'kube-controller-manager',
    );
    await expect(failure).rejects.toThrow(
      /KUBEBUILDER_ASSETS=.* lacks kube-controller-manager.*holds kube-controller-manager/,
    );
  });

  it('takes cached components beside a cached apiserver', async () => {
    const cached = join(dir, 'cache', `v${KUBERNETES_VERSION}`);
    await fakeBinaries(cached, ['kube-apiserver', 'etcd', 'kube-scheduler']);
    await writeFile(join(cached, 'build.json'), JSON.stringify(coreRecord));
    const schedulerRecord = {
      kubernetesVersion: KUBERNETES_VERSION,
      goVersion: 'go',
      builtAt: 'y',
      buildMs: 2,
    };
    await writeFile(join(cached, 'kube-scheduler.build.json'), JSON.stringify(schedulerRecord));
    const found = await resolveBinaries(
      {
        components: ['kube-scheduler'],
        cacheDirectory: join(dir, 'cache'),
        logger: noopLogger,
        download: false,
      },
      {},
    );
    expect(found).toMatchObject({
      source: 'cache',
      components: { 'kube-scheduler': join(cached, 'kube-scheduler') },
      componentBuilds: { 'kube-scheduler': schedulerRecord },
    });
  });

  it('without Go, a component that is not cached is BinariesMissingError naming it', async () => {
    const cached = join(dir, 'cache', `v${KUBERNETES_VERSION}`);
    // A scheduler binary without its build record does not count (an interrupted build).
    await fakeBinaries(cached, ['kube-apiserver', 'etcd', 'kube-scheduler']);
    await writeFile(join(cached, 'build.json'), JSON.stringify(coreRecord));
    const failure = resolveBinaries(
      {
        components: ['kube-scheduler'],
        cacheDirectory: join(dir, 'cache'),
        download: false,
        logger: noopLogger,
      },
      { PATH: join(dir, 'empty') },
    );
    await expect(failure).rejects.toSatisfy(
      (e) => BinariesMissingError.isInstance(e) && e.binaries.join() === 'kube-scheduler',
    );
    await expect(failure).rejects.toThrow(
      /^kube-scheduler is not cached and Go is not installed.*go on PATH.*holds kube-scheduler.*install Go/s,
    );
    const off = resolveBinaries(
      {
        components: ['kube-controller-manager'],
        cacheDirectory: join(dir, 'cache'),
        build: false,
        download: false,
        logger: noopLogger,
      },
      {},
    );
    await expect(off).rejects.toThrow(/^kube-controller-manager is not cached and building is off/);
  });
});

describe("resolveBinaries with setup-envtest's store", () => {
  let dir: string;
  const folder = `${KUBERNETES_VERSION}-${goOs()}-${goArch()}`;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses $XDG_DATA_HOME/kubebuilder-envtest/k8s/<version>-<os>-<arch> before the cache', async () => {
    const store = join(dir, 'data', 'kubebuilder-envtest', 'k8s', folder);
    await fakeBinaries(store);
    const found = await resolveBinaries(
      { cacheDirectory: join(dir, 'cache'), build: false, download: false, logger: noopLogger },
      { XDG_DATA_HOME: join(dir, 'data'), HOME: join(dir, 'home') },
    );
    expect(found).toMatchObject({
      source: 'setup-envtest',
      directory: store,
      kubeApiServer: join(store, 'kube-apiserver'),
      etcd: join(store, 'etcd'),
    });
  });

  it.skipIf(goOs() === 'darwin')(
    'uses ~/.local/share/kubebuilder-envtest without XDG_DATA_HOME',
    async () => {
      const store = join(dir, 'home', '.local', 'share', 'kubebuilder-envtest', 'k8s', folder);
      await fakeBinaries(store);
      const found = await resolveBinaries(
        { cacheDirectory: join(dir, 'cache'), build: false, download: false, logger: noopLogger },
        { HOME: join(dir, 'home') },
      );
      expect(found).toMatchObject({ source: 'setup-envtest', directory: store });
    },
  );

  it('ignores a store folder of another version, or one lacking etcd', async () => {
    await fakeBinaries(
      join(dir, 'data', 'kubebuilder-envtest', 'k8s', `1.30.0-${goOs()}-${goArch()}`),
    );
    await fakeBinaries(join(dir, 'data', 'kubebuilder-envtest', 'k8s', folder), ['kube-apiserver']);
    const failure = resolveBinaries(
      { cacheDirectory: join(dir, 'cache'), build: false, download: false, logger: noopLogger },
      { XDG_DATA_HOME: join(dir, 'data') },
    );
    await expect(failure).rejects.toThrow(/not cached and building is off.*setup-envtest's store/);
  });

  it('lists the macOS location on darwin', () => {
    expect(setupEnvtestStoreRoots({ HOME: '/Users/a', XDG_DATA_HOME: '/x' }, 'darwin')).toEqual([
      '/Users/a/Library/Application Support/io.kubebuilder.envtest',
    ]);
    expect(setupEnvtestStoreRoots({ HOME: '/home/a', XDG_DATA_HOME: '/x' }, 'linux')).toEqual([
      '/x/kubebuilder-envtest',
      '/home/a/.local/share/kubebuilder-envtest',
    ]);
  });
});

describe('the shipped Go modules', () => {
  it('pin the versions the package reports', async () => {
    const kube = await readFile(join(GO_MODULES_DIRECTORY, 'kube-apiserver', 'go.mod'), 'utf8');
    const etcd = await readFile(join(GO_MODULES_DIRECTORY, 'etcd', 'go.mod'), 'utf8');
    expect(kube).toContain(`k8s.io/kubernetes v${KUBERNETES_VERSION}`);
    // One go.mod builds the apiserver and the components: one set of versions.
    for (const binary of ['kube-apiserver', 'kube-scheduler', 'kube-controller-manager']) {
      expect(kube).toMatch(
        new RegExp(`^tool \\($[^)]*^\\tk8s\\.io/kubernetes/cmd/${binary}$`, 'ms'),
      );
    }
    expect(kube).toContain(
      `k8s.io/api => k8s.io/api v0.${KUBERNETES_VERSION.split('.').slice(1).join('.')}`,
    );
    expect(etcd).toContain(`go.etcd.io/etcd/server/v3 v${ETCD_VERSION}`);
  });
});
