//! Builds the control plane binaries from the Go modules this package ships, once per machine.

import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ComponentName } from './components.js';
import { formatDuration } from './internal/format.js';
import {
  copyGoModule,
  findGo,
  type GoBuildTarget,
  goBuild,
  kubernetesLdflags,
} from './internal/go-build.js';
import { withFileLock } from './internal/lock.js';
import type { ResolvedBinaryOptions } from './options.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

/**
 * The folder holding `kube-apiserver/go.mod` (which builds kube-apiserver, kube-scheduler
 * and kube-controller-manager) and `etcd/go.mod`, shipped in the package.
 */
export const GO_MODULES_DIRECTORY = fileURLToPath(new URL('../go/', import.meta.url));

/** What a finished build of kube-apiserver and etcd wrote next to them (`build.json`). */
export interface BuildRecord {
  readonly kubernetesVersion: string;
  readonly etcdVersion: string;
  readonly goVersion: string;
  readonly builtAt: string;
  readonly buildMs: number;
}

/** What a finished build of a component wrote next to it (`<component>.build.json`). */
export interface ComponentBuildRecord {
  readonly kubernetesVersion: string;
  readonly goVersion: string;
  readonly builtAt: string;
  readonly buildMs: number;
}

const kubernetesTarget = (binary: string): GoBuildTarget => ({
  binary,
  module: 'kube-apiserver',
  pkg: `k8s.io/kubernetes/cmd/${binary}`,
  stampModule: 'k8s.io/kubernetes',
  ldflags: kubernetesLdflags,
});

const coreTargets: readonly GoBuildTarget[] = [
  {
    binary: 'etcd',
    module: 'etcd',
    pkg: 'go.etcd.io/etcd/server/v3',
    stampModule: 'go.etcd.io/etcd/server/v3',
    ldflags: () => '-s -w',
  },
  kubernetesTarget('kube-apiserver'),
];

/** The cache folder of this package's binary versions: `<cacheDirectory>/v<kubernetes>`. */
export function versionedCacheDirectory(cacheDirectory: string): string {
  return join(cacheDirectory, `v${KUBERNETES_VERSION}`);
}

/** The build record file of `component` in the versioned cache folder. */
export function componentRecordPath(directory: string, component: ComponentName): string {
  return join(directory, `${component}.build.json`);
}

/**
 * Builds `etcd` and `kube-apiserver` into the versioned cache folder and returns it.
 *
 * Holds `<cacheDirectory>/v<version>.lock` meanwhile: a second process waits and then
 * uses what the first built (`isCached` is asked again under the lock). The Go modules
 * are copied to a temporary folder first, so a read-only package folder builds too.
 * Builds with `-trimpath`, `CGO_ENABLED=0`, `-mod=readonly` and `GOTOOLCHAIN=local`
 * (unless set), so the result does not depend on the checkout's path and nothing but
 * Go module sources is downloaded. Reports progress at least every 15 s.
 */
export async function buildBinaries(
  options: ResolvedBinaryOptions,
  isCached: () => Promise<boolean>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { logger, cacheDirectory } = options;
  const target = versionedCacheDirectory(cacheDirectory);
  const goVersion = await findGo(env, ['kube-apiserver', 'etcd'], searchedBefore(target));
  await mkdir(cacheDirectory, { recursive: true });
  return withFileLock(
    `${target}.lock`,
    async () => {
      if (await isCached()) return target;
      logger.info(
        {},
        `building kube-apiserver v${KUBERNETES_VERSION} and etcd v${ETCD_VERSION} with ${goVersion} ` +
          `into ${target} (once per machine; about 8 minutes on 2 cores with an empty Go cache)`,
      );
      const started = performance.now();
      const staging = `${target}.partial-${process.pid}`;
      const work = await mkdtemp(join(tmpdir(), 'ctrlkit-envtest-build-'));
      const logPath = join(cacheDirectory, `build-v${KUBERNETES_VERSION}.log`);
      const log = createWriteStream(logPath);
      try {
        await rm(staging, { recursive: true, force: true });
        await mkdir(staging, { recursive: true });
        for (const t of coreTargets) {
          const moduleDir = await copyGoModule(GO_MODULES_DIRECTORY, t.module, work);
          await goBuild(t, moduleDir, join(staging, t.binary), { ...options, env, log, logPath });
        }
        const record: BuildRecord = {
          kubernetesVersion: KUBERNETES_VERSION,
          etcdVersion: ETCD_VERSION,
          goVersion,
          builtAt: new Date().toISOString(),
          buildMs: Math.round(performance.now() - started),
        };
        await writeFile(join(staging, 'build.json'), `${JSON.stringify(record, null, 2)}\n`);
        await rm(target, { recursive: true, force: true });
        await rename(staging, target);
        logger.info(
          {},
          `built kube-apiserver and etcd in ${formatDuration(record.buildMs)} into ${target}`,
        );
        return target;
      } finally {
        await new Promise((resolve) => log.end(resolve));
        await rm(work, { recursive: true, force: true });
        await rm(staging, { recursive: true, force: true });
      }
    },
    (holder, waitedMs) => reportWait(options, holder?.pid, waitedMs),
  );
}

/**
 * Builds each of `components` that `isCached` says is missing into the versioned cache
 * folder, beside kube-apiserver, from the same go.mod (so the same Kubernetes version and
 * dependencies), one after the other, each logging to `build-v<version>-<component>.log` in
 * the cache root; returns the folder. Same lock, flags and progress as `buildBinaries`.
 */
export async function buildComponentBinaries(
  options: ResolvedBinaryOptions,
  components: readonly ComponentName[],
  isCached: (component: ComponentName) => Promise<boolean>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { logger, cacheDirectory } = options;
  const target = versionedCacheDirectory(cacheDirectory);
  const goVersion = await findGo(env, components, searchedBefore(target));
  await mkdir(target, { recursive: true });
  return withFileLock(
    `${target}.lock`,
    async () => {
      const missing: ComponentName[] = [];
      for (const c of components) if (!(await isCached(c))) missing.push(c);
      if (missing.length === 0) return target;
      logger.info(
        {},
        `building ${missing.join(' and ')} v${KUBERNETES_VERSION} with ${goVersion} into ${target} ` +
          '(once per machine; a few minutes each on 2 cores after kube-apiserver was built)',
      );
      const work = await mkdtemp(join(tmpdir(), 'ctrlkit-envtest-build-'));
      try {
        const moduleDir = await copyGoModule(GO_MODULES_DIRECTORY, 'kube-apiserver', work);
        for (const component of missing) {
          await buildComponent(component, moduleDir, target, goVersion, options, env);
        }
        return target;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    (holder, waitedMs) => reportWait(options, holder?.pid, waitedMs),
  );
}

async function buildComponent(
  component: ComponentName,
  moduleDir: string,
  target: string,
  goVersion: string,
  options: ResolvedBinaryOptions,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const started = performance.now();
  const output = join(target, component);
  const partial = `${output}.partial-${process.pid}`;
  const logPath = join(options.cacheDirectory, `build-v${KUBERNETES_VERSION}-${component}.log`);
  const log = createWriteStream(logPath);
  try {
    await rm(componentRecordPath(target, component), { force: true });
    await goBuild(kubernetesTarget(component), moduleDir, partial, {
      ...options,
      env,
      log,
      logPath,
    });
    await rename(partial, output);
    const record: ComponentBuildRecord = {
      kubernetesVersion: KUBERNETES_VERSION,
      goVersion,
      builtAt: new Date().toISOString(),
      buildMs: Math.round(performance.now() - started),
    };
    await writeFile(componentRecordPath(target, component), `${JSON.stringify(record, null, 2)}\n`);
  } finally {
    await new Promise((resolve) => log.end(resolve));
    await rm(partial, { force: true });
  }
}

function searchedBefore(target: string): string[] {
  return [
    'the binaryAssetsDirectory option',
    'KUBEBUILDER_ASSETS (not set)',
    `the cache ${target} (not there)`,
  ];
}

function reportWait(options: ResolvedBinaryOptions, pid: number | undefined, waitedMs: number) {
  options.logger.info(
    {},
    `waiting for the build by process ${pid ?? '?'} to finish (${formatDuration(waitedMs)} so far)`,
  );
}
