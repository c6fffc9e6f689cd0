//! Finds kube-apiserver and etcd: KUBEBUILDER_ASSETS, then the cache, then a Go build.

import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BuildRecord, buildBinaries, versionedCacheDirectory } from './build.js';
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { type BinaryOptions, resolveBinaryOptions } from './options.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

/** Where the control plane binaries were found. */
export interface ControlPlaneBinaries {
  /** The folder holding both binaries. */
  readonly directory: string;
  readonly kubeApiServer: string;
  readonly etcd: string;
  /**
   * `assets`: `binaryAssetsDirectory` or `KUBEBUILDER_ASSETS`; `cache`: built earlier;
   * `build`: built by this call.
   */
  readonly source: 'assets' | 'cache' | 'build';
  /** The build record for `cache` and `build`; `undefined` for `assets`. */
  readonly build: BuildRecord | undefined;
}

/**
 * Finds `kube-apiserver` and `etcd`, in this order:
 * 1. `options.binaryAssetsDirectory`, else the `KUBEBUILDER_ASSETS` environment variable:
 *    when set, both binaries must be there (no fallback);
 * 2. the cache, `<cacheDirectory>/v<kubernetes version>/`, when its `build.json` matches
 *    this package's versions;
 * 3. a build with the machine's Go (unless `build: false`), see `buildBinaries`.
 *
 * Errors: `InvalidArgumentError`; `BinariesMissingError` when none of these works (it names
 * both ways out); `BuildFailedError` when Go fails.
 */
export async function resolveBinaries(
  options: BinaryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<ControlPlaneBinaries> {
  const resolved = resolveBinaryOptions(options, env);
  if (resolved.binaryAssetsDirectory !== undefined) {
    const directory = resolved.binaryAssetsDirectory;
    const from =
      options.binaryAssetsDirectory !== undefined ? 'binaryAssetsDirectory' : 'KUBEBUILDER_ASSETS';
    const missing = await missingBinaries(directory);
    if (missing.length > 0) {
      throw new BinariesMissingError(`${from}=${directory} lacks ${missing.join(' and ')}`, [
        `${from} (${directory})`,
      ]);
    }
    return { ...paths(directory), source: 'assets', build: undefined };
  }

  const directory = versionedCacheDirectory(resolved.cacheDirectory);
  const cached = await readCached(directory);
  if (cached !== undefined) return { ...paths(directory), source: 'cache', build: cached };
  if (!resolved.build) {
    throw new BinariesMissingError(
      'kube-apiserver and etcd are not cached and building is off (build: false)',
      [
        'the binaryAssetsDirectory option',
        'KUBEBUILDER_ASSETS (not set)',
        `the cache ${directory} (empty)`,
      ],
    );
  }
  let builtHere = true;
  await buildBinaries(
    resolved,
    async () => {
      const found = (await readCached(directory)) !== undefined;
      if (found) builtHere = false;
      return found;
    },
    env,
  );
  const record = await readCached(directory);
  if (record === undefined) {
    throw new BinariesMissingError('the build finished but its output is missing', [directory]);
  }
  return { ...paths(directory), source: builtHere ? 'build' : 'cache', build: record };
}

function paths(directory: string): { directory: string; kubeApiServer: string; etcd: string } {
  return {
    directory,
    kubeApiServer: join(directory, 'kube-apiserver'),
    etcd: join(directory, 'etcd'),
  };
}

async function missingBinaries(directory: string): Promise<string[]> {
  const missing: string[] = [];
  for (const name of ['kube-apiserver', 'etcd']) {
    try {
      await access(join(directory, name), constants.X_OK);
    } catch {
      missing.push(name);
    }
  }
  return missing;
}

/** The build record of a complete cache folder of this package's versions, else `undefined`. */
async function readCached(directory: string): Promise<BuildRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(join(directory, 'build.json'), 'utf8')) as BuildRecord;
    if (record.kubernetesVersion !== KUBERNETES_VERSION || record.etcdVersion !== ETCD_VERSION)
      return undefined;
    return (await missingBinaries(directory)).length === 0 ? record : undefined;
  } catch {
    return undefined;
  }
}
