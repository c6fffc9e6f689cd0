//! Finds the control plane binaries: KUBEBUILDER_ASSETS, then the cache, then a Go build.

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
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { type BinaryOptions, type ResolvedBinaryOptions, resolveBinaryOptions } from './options.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

/** Where the control plane binaries were found. */
export interface ControlPlaneBinaries {
  /** The folder holding the binaries. */
  readonly directory: string;
  readonly kubeApiServer: string;
  readonly etcd: string;
  /** The path of each requested component (option `components`), by name. */
  readonly components: Readonly<Partial<Record<ComponentName, string>>>;
  /**
   * `assets`: `binaryAssetsDirectory` or `KUBEBUILDER_ASSETS`; `cache`: built earlier;
   * `build`: this call built at least one of them.
   */
  readonly source: 'assets' | 'cache' | 'build';
  /** The build record of kube-apiserver and etcd for `cache` and `build`; `undefined` for `assets`. */
  readonly build: BuildRecord | undefined;
  /** The build record of each requested component for `cache` and `build`. */
  readonly componentBuilds: Readonly<Partial<Record<ComponentName, ComponentBuildRecord>>>;
}

/**
 * Finds `kube-apiserver`, `etcd` and each of `options.components`, in this order:
 * 1. `options.binaryAssetsDirectory`, else the `KUBEBUILDER_ASSETS` environment variable:
 *    when set, every binary asked for must be there (no fallback: a component of another
 *    Kubernetes version than the apiserver's is not what a test wants);
 * 2. the cache, `<cacheDirectory>/v<kubernetes version>/`, when its build records match
 *    this package's versions;
 * 3. a build with the machine's Go (unless `build: false`), see `buildBinaries` and
 *    `buildComponentBinaries`.
 *
 * Errors: `InvalidArgumentError`, `UnknownComponentError`; `BinariesMissingError` (naming
 * the missing binaries and both ways out) when none of these works; `BuildFailedError` when
 * Go fails.
 */
export async function resolveBinaries(
  options: BinaryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<ControlPlaneBinaries> {
  const resolved = resolveBinaryOptions(options, env);
  const wanted = ['kube-apiserver', 'etcd', ...resolved.components];
  if (resolved.binaryAssetsDirectory !== undefined) {
    const directory = resolved.binaryAssetsDirectory;
    const from =
      options.binaryAssetsDirectory !== undefined ? 'binaryAssetsDirectory' : 'KUBEBUILDER_ASSETS';
    const missing = await missingBinaries(directory, wanted);
    if (missing.length > 0) {
      throw new BinariesMissingError(
        `${from}=${directory} lacks ${missing.join(' and ')}`,
        [`${from} (${directory})`],
        missing,
      );
    }
    return {
      ...paths(directory, resolved),
      source: 'assets',
      build: undefined,
      componentBuilds: {},
    };
  }

  const directory = versionedCacheDirectory(resolved.cacheDirectory);
  let built = false;
  let build = await readCached(directory);
  if (build === undefined) {
    refuseToBuild(resolved, directory, ['kube-apiserver', 'etcd']);
    built = true;
    await buildBinaries(
      resolved,
      async () => {
        const found = (await readCached(directory)) !== undefined;
        if (found) built = false;
        return found;
      },
      env,
    );
    build = await readCached(directory);
    if (build === undefined) {
      throw new BinariesMissingError('the build finished but its output is missing', [directory]);
    }
  }
  const componentBuilds = await readComponentRecords(directory, resolved.components);
  const missing = resolved.components.filter((c) => componentBuilds[c] === undefined);
  if (missing.length > 0) {
    refuseToBuild(resolved, directory, missing);
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
    Object.assign(componentBuilds, await readComponentRecords(directory, missing));
    const stillMissing = missing.filter((c) => componentBuilds[c] === undefined);
    if (stillMissing.length > 0) {
      throw new BinariesMissingError(
        'the build finished but its output is missing',
        [directory],
        stillMissing,
      );
    }
    built ||= missing.some((c) => !builtElsewhere.has(c));
  }
  return {
    ...paths(directory, resolved),
    source: built ? 'build' : 'cache',
    build,
    componentBuilds,
  };
}

/** Throws `BinariesMissingError` for `binaries` when building is off. */
function refuseToBuild(
  resolved: ResolvedBinaryOptions,
  directory: string,
  binaries: readonly string[],
): void {
  if (resolved.build) return;
  throw new BinariesMissingError(
    `${binaries.join(' and ')} ${binaries.length > 1 ? 'are' : 'is'} not cached and building is off (build: false)`,
    [
      'the binaryAssetsDirectory option',
      'KUBEBUILDER_ASSETS (not set)',
      `the cache ${directory} (not there)`,
    ],
    binaries,
  );
}

function paths(
  directory: string,
  resolved: ResolvedBinaryOptions,
): Pick<ControlPlaneBinaries, 'directory' | 'kubeApiServer' | 'etcd' | 'components'> {
  return {
    directory,
    kubeApiServer: join(directory, 'kube-apiserver'),
    etcd: join(directory, 'etcd'),
    components: Object.fromEntries(resolved.components.map((c) => [c, join(directory, c)])),
  };
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

/** The build record of a cache folder with kube-apiserver and etcd of this package's versions, else `undefined`. */
async function readCached(directory: string): Promise<BuildRecord | undefined> {
  const record = await readJson<BuildRecord>(join(directory, 'build.json'));
  if (record?.kubernetesVersion !== KUBERNETES_VERSION || record.etcdVersion !== ETCD_VERSION)
    return undefined;
  return (await missingBinaries(directory, ['kube-apiserver', 'etcd'])).length === 0
    ? record
    : undefined;
}

/** The build record of a cached `component` of this package's Kubernetes version, else `undefined`. */
async function readComponentRecord(
  directory: string,
  component: ComponentName,
): Promise<ComponentBuildRecord | undefined> {
  const record = await readJson<ComponentBuildRecord>(componentRecordPath(directory, component));
  if (record?.kubernetesVersion !== KUBERNETES_VERSION) return undefined;
  return (await missingBinaries(directory, [component])).length === 0 ? record : undefined;
}

async function readComponentRecords(
  directory: string,
  components: readonly ComponentName[],
): Promise<Partial<Record<ComponentName, ComponentBuildRecord>>> {
  const records: Partial<Record<ComponentName, ComponentBuildRecord>> = {};
  for (const c of components) {
    const record = await readComponentRecord(directory, c);
    if (record !== undefined) records[c] = record;
  }
  return records;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
