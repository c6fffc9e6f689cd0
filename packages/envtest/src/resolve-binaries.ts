//! Finds the control plane binaries: KUBEBUILDER_ASSETS, setup-envtest's store, the cache, a download, a Go build.

import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type BuildRecord,
  buildBinaries,
  buildComponentBinaries,
  type ComponentBuildRecord,
  componentRecordPath,
  versionedCacheDirectory,
} from './build.js';
import type { ComponentName } from './components.js';
import { DOWNLOAD_RECORD, type DownloadRecord, downloadBinaries } from './download.js';
import {
  type ComponentDownloadRecord,
  componentDownloadRecordPath,
  downloadComponents,
} from './download-component.js';
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { setupEnvtestFolders } from './internal/setup-envtest-store.js';
import { stderrLogger } from './logger.js';
import { type BinaryOptions, type ResolvedBinaryOptions, resolveBinaryOptions } from './options.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

/** Where the control plane binaries were found. */
export interface ControlPlaneBinaries {
  /** The folder holding kube-apiserver and etcd (components are in `components`). */
  readonly directory: string;
  readonly kubeApiServer: string;
  readonly etcd: string;
  /** The path of each requested component (option `components`), by name. */
  readonly components: Readonly<Partial<Record<ComponentName, string>>>;
  /**
   * Where kube-apiserver and etcd came from: `assets`: `binaryAssetsDirectory` or
   * `KUBEBUILDER_ASSETS`; `setup-envtest`: setup-envtest's store on this machine; `cache`: put
   * in the cache earlier; `download`: this call downloaded them (or, with them in the cache,
   * a component); `build`: this call built at least one binary (also a component).
   */
  readonly source: 'assets' | 'setup-envtest' | 'cache' | 'download' | 'build';
  /** The build record of kube-apiserver and etcd when they were built with Go, else `undefined`. */
  readonly build: BuildRecord | undefined;
  /** The download record of kube-apiserver and etcd when they were downloaded, else `undefined`. */
  readonly download: DownloadRecord | undefined;
  /** The build record of each requested component that was built with Go. */
  readonly componentBuilds: Readonly<Partial<Record<ComponentName, ComponentBuildRecord>>>;
  /** The download record of each requested component that was downloaded. */
  readonly componentDownloads: Readonly<Partial<Record<ComponentName, ComponentDownloadRecord>>>;
}

/** The records of a cache folder with usable kube-apiserver and etcd. */
interface CachedCore {
  readonly build?: BuildRecord;
  readonly download?: DownloadRecord;
}

/** The records of a usable cached component. */
interface CachedComponent {
  readonly build?: ComponentBuildRecord;
  readonly download?: ComponentDownloadRecord;
}

/**
 * Finds `kube-apiserver`, `etcd` and each of `options.components`, in this order:
 * 1. `options.binaryAssetsDirectory`, else the `KUBEBUILDER_ASSETS` environment variable:
 *    when set, every binary asked for must be there (no fallback: a component of another
 *    Kubernetes version than the apiserver's is not what a test wants);
 * 2. setup-envtest's store, `<data dir>/kubebuilder-envtest/k8s/<version>-<os>-<arch>/`
 *    (`$XDG_DATA_HOME` or `~/.local/share`; on macOS
 *    `~/Library/Application Support/io.kubebuilder.envtest`), used as is;
 * 3. the cache, `<cacheDirectory>/v<kubernetes version>/`, when its build or download record
 *    matches this package's versions;
 * 4. a download of the envtest release archive from `releaseIndexUrl` (unless
 *    `download: false`), SHA-512 checked;
 * 5. a build with the machine's Go (unless `build: false`), see `buildBinaries`; the reason
 *    the download did not happen is logged first.
 *
 * Components are never in setup-envtest's store nor in the envtest archives: they come from
 * the cache (a build or download record of this Kubernetes version), else a download of
 * Kubernetes' release binary from `kubernetesReleaseUrl` (unless `download: false`), its
 * published `.sha512` checked, else a build (the reason the download did not happen is
 * logged first), into the cache folder.
 *
 * Errors: `InvalidArgumentError`, `UnknownComponentError`; `BinariesMissingError` (naming
 * the missing binaries and the ways out) when none of these works; `ChecksumMismatchError`,
 * `ArchiveInvalidError` for a bad download (nothing of it is kept); `BuildFailedError` when
 * Go fails.
 */
export async function resolveBinaries(
  options: BinaryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<ControlPlaneBinaries> {
  const resolved = resolveBinaryOptions(options, env);
  if (resolved.binaryAssetsDirectory !== undefined) {
    return fromAssets(resolved, options.binaryAssetsDirectory !== undefined);
  }
  const cacheFolder = versionedCacheDirectory(resolved.cacheDirectory);
  const core = await findCore(resolved, cacheFolder, env);
  const components = await findComponents(resolved, cacheFolder, env);
  return {
    directory: core.directory,
    kubeApiServer: join(core.directory, 'kube-apiserver'),
    etcd: join(core.directory, 'etcd'),
    components: Object.fromEntries(resolved.components.map((c) => [c, join(cacheFolder, c)])),
    source: core.source === 'cache' && components.obtained ? components.obtained : core.source,
    build: core.records?.build,
    download: core.records?.download,
    componentBuilds: pick(components.records, 'build'),
    componentDownloads: pick(components.records, 'download'),
  };
}

async function fromAssets(
  resolved: ResolvedBinaryOptions,
  fromOption: boolean,
): Promise<ControlPlaneBinaries> {
  const directory = resolved.binaryAssetsDirectory as string;
  const from = fromOption ? 'binaryAssetsDirectory' : 'KUBEBUILDER_ASSETS';
  const wanted = ['kube-apiserver', 'etcd', ...resolved.components];
  const missing = await missingBinaries(directory, wanted);
  if (missing.length > 0) {
    throw new BinariesMissingError(
      `${from}=${directory} lacks ${missing.join(' and ')}`,
      [`${from} (${directory})`],
      missing,
    );
  }
  return {
    directory,
    kubeApiServer: join(directory, 'kube-apiserver'),
    etcd: join(directory, 'etcd'),
    components: Object.fromEntries(resolved.components.map((c) => [c, join(directory, c)])),
    source: 'assets',
    build: undefined,
    download: undefined,
    componentBuilds: {},
    componentDownloads: {},
  };
}

interface FoundCore {
  readonly directory: string;
  readonly source: 'setup-envtest' | 'cache' | 'download' | 'build';
  readonly records: CachedCore | undefined;
}

/** Steps 2 to 5 for kube-apiserver and etcd. */
async function findCore(
  resolved: ResolvedBinaryOptions,
  cacheFolder: string,
  env: NodeJS.ProcessEnv,
): Promise<FoundCore> {
  for (const folder of setupEnvtestFolders(KUBERNETES_VERSION, env)) {
    if ((await missingBinaries(folder, ['kube-apiserver', 'etcd'])).length === 0) {
      resolved.logger.info({}, `using setup-envtest's kube-apiserver and etcd in ${folder}`);
      return { directory: folder, source: 'setup-envtest', records: undefined };
    }
  }
  const cached = await readCached(cacheFolder);
  if (cached !== undefined) return { directory: cacheFolder, source: 'cache', records: cached };

  let notDownloaded = 'downloads are off (download: false or CTRLKIT_ENVTEST_DOWNLOAD=false)';
  if (resolved.download) {
    const outcome = await downloadBinaries(
      resolved,
      cacheFolder,
      async () => (await readCached(cacheFolder)) !== undefined,
      // A bar on the terminal with the default logger; log lines through any other.
      resolved.logger === stderrLogger ? process.stderr : undefined,
    );
    const records = await readCached(cacheFolder);
    if (records !== undefined) {
      return { directory: cacheFolder, source: outcome.downloaded ? 'download' : 'cache', records };
    }
    if (!outcome.downloaded) notDownloaded = outcome.reason;
  }
  refuseToBuild(resolved, cacheFolder, ['kube-apiserver', 'etcd'], notDownloaded);
  if (resolved.download) {
    resolved.logger.info(
      {},
      `not downloaded: ${notDownloaded}; building from the Go modules instead`,
    );
  }
  let built = true;
  await buildBinaries(
    resolved,
    async () => {
      const found = (await readCached(cacheFolder)) !== undefined;
      if (found) built = false;
      return found;
    },
    env,
  );
  const records = await readCached(cacheFolder);
  if (records === undefined) {
    throw new BinariesMissingError('the build finished but its output is missing', [cacheFolder]);
  }
  return { directory: cacheFolder, source: built ? 'build' : 'cache', records };
}

/** The requested components, from the cache folder, downloaded or built there when missing. */
async function findComponents(
  resolved: ResolvedBinaryOptions,
  directory: string,
  env: NodeJS.ProcessEnv,
): Promise<{
  records: Partial<Record<ComponentName, CachedComponent>>;
  /** What this call did to get a missing one: `build` when it built any. */
  obtained: 'download' | 'build' | undefined;
}> {
  const records = await readComponentRecords(directory, resolved.components);
  let missing = resolved.components.filter((c) => records[c] === undefined);
  if (missing.length === 0) return { records, obtained: undefined };
  let reasons: Partial<Record<ComponentName, string>> = {};
  let downloaded = false;
  if (resolved.download) {
    reasons = await downloadComponents(
      resolved,
      missing,
      async (c) => (await readComponentRecord(directory, c)) !== undefined,
      // A bar on the terminal with the default logger; log lines through any other.
      resolved.logger === stderrLogger ? process.stderr : undefined,
    );
    Object.assign(records, await readComponentRecords(directory, missing));
    downloaded = missing.some((c) => records[c]?.download !== undefined);
    missing = missing.filter((c) => records[c] === undefined);
    if (missing.length === 0) return { records, obtained: downloaded ? 'download' : undefined };
  }
  const off = 'downloads are off (download: false or CTRLKIT_ENVTEST_DOWNLOAD=false)';
  const notDownloaded = resolved.download
    ? missing.map((c) => reasons[c] ?? `another process got ${c}`).join('; ')
    : off;
  refuseToBuild(resolved, directory, missing, notDownloaded);
  for (const c of missing) {
    const reason = reasons[c];
    if (reason !== undefined) {
      resolved.logger.info(
        {},
        `not downloaded: ${reason}; building ${c} from the Go modules instead`,
      );
    }
  }
  const builtElsewhere = new Set<ComponentName>();
  await buildComponentBinaries(
    resolved,
    missing,
    async (component) => {
      const found = (await readComponentRecord(directory, component)) !== undefined;
      if (found) builtElsewhere.add(component);
      return found;
    },
    env,
  );
  Object.assign(records, await readComponentRecords(directory, missing));
  const stillMissing = missing.filter((c) => records[c] === undefined);
  if (stillMissing.length > 0) {
    throw new BinariesMissingError(
      'the build finished but its output is missing',
      [directory],
      stillMissing,
    );
  }
  const built = missing.some((c) => !builtElsewhere.has(c));
  return { records, obtained: built ? 'build' : downloaded ? 'download' : undefined };
}

/** Throws `BinariesMissingError` for `binaries` when building is off. */
function refuseToBuild(
  resolved: ResolvedBinaryOptions,
  directory: string,
  binaries: readonly string[],
  notDownloaded: string,
): void {
  if (resolved.build) return;
  throw new BinariesMissingError(
    `${binaries.join(' and ')} ${binaries.length > 1 ? 'are' : 'is'} not cached and building is off (build: false)`,
    [
      'the binaryAssetsDirectory option',
      'KUBEBUILDER_ASSETS (not set)',
      "setup-envtest's store (not there)",
      `the cache ${directory} (not there)`,
      `a download (${notDownloaded})`,
    ],
    binaries,
  );
}

async function missingBinaries(directory: string, names: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    try {
      await access(join(directory, name), constants.X_OK);
    } catch {
      missing.push(name);
    }
  }
  return missing;
}

/**
 * The records of a cache folder with kube-apiserver and etcd of this package's versions: a
 * `build.json` of these versions or a `download.json` of this Kubernetes version (the
 * archive's etcd is the one controller-tools ships with it); else `undefined`.
 */
async function readCached(directory: string): Promise<CachedCore | undefined> {
  const build = await readJson<BuildRecord>(join(directory, 'build.json'));
  const download = await readJson<DownloadRecord>(join(directory, DOWNLOAD_RECORD));
  const records: CachedCore = {
    ...(build?.kubernetesVersion === KUBERNETES_VERSION && build.etcdVersion === ETCD_VERSION
      ? { build }
      : {}),
    ...(download?.kubernetesVersion === KUBERNETES_VERSION ? { download } : {}),
  };
  if (records.build === undefined && records.download === undefined) return undefined;
  return (await missingBinaries(directory, ['kube-apiserver', 'etcd'])).length === 0
    ? records
    : undefined;
}

/**
 * The records of a cached `component` of this package's Kubernetes version (a build or a
 * download), when its binary is there; else `undefined`.
 */
async function readComponentRecord(
  directory: string,
  component: ComponentName,
): Promise<CachedComponent | undefined> {
  const build = await readJson<ComponentBuildRecord>(componentRecordPath(directory, component));
  const download = await readJson<ComponentDownloadRecord>(
    componentDownloadRecordPath(directory, component),
  );
  const record: CachedComponent = {
    ...(build?.kubernetesVersion === KUBERNETES_VERSION ? { build } : {}),
    ...(download?.kubernetesVersion === KUBERNETES_VERSION ? { download } : {}),
  };
  if (record.build === undefined && record.download === undefined) return undefined;
  return (await missingBinaries(directory, [component])).length === 0 ? record : undefined;
}

async function readComponentRecords(
  directory: string,
  components: readonly ComponentName[],
): Promise<Partial<Record<ComponentName, CachedComponent>>> {
  const records: Partial<Record<ComponentName, CachedComponent>> = {};
  for (const c of components) {
    const record = await readComponentRecord(directory, c);
    if (record !== undefined) records[c] = record;
  }
  return records;
}

/** The `build` or `download` record of each component that has one. */
function pick<K extends keyof CachedComponent>(
  records: Partial<Record<ComponentName, CachedComponent>>,
  kind: K,
): Partial<Record<ComponentName, NonNullable<CachedComponent[K]>>> {
  const picked: Partial<Record<ComponentName, NonNullable<CachedComponent[K]>>> = {};
  for (const [c, record] of Object.entries(records) as [ComponentName, CachedComponent][]) {
    const value = record[kind];
    if (value !== undefined) picked[c] = value as NonNullable<CachedComponent[K]>;
  }
  return picked;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
