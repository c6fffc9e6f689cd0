//! Downloads kube-scheduler and kube-controller-manager, Kubernetes' own release binaries, into the cache.

import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { versionedCacheDirectory } from './build.js';
import type { ComponentName } from './components.js';
import { describeFetchError, fetchChecked } from './internal/fetch-checked.js';
import { formatDuration } from './internal/format.js';
import { withFileLock } from './internal/lock.js';
import { goArch, goOs } from './internal/platform.js';
import type { ProgressStream } from './internal/progress.js';
import type { ResolvedBinaryOptions } from './options.js';
import { KUBERNETES_VERSION } from './versions.js';

/** What a finished download of a component wrote next to it (`<component>.download.json`). */
export interface ComponentDownloadRecord {
  readonly kubernetesVersion: string;
  readonly url: string;
  /** Its SHA-512 (hex), as checked against the `.sha512` published beside it. */
  readonly sha512: string;
  readonly downloadedAt: string;
  readonly downloadMs: number;
}

/** How long fetching a `.sha512` may take before the host counts as unreachable, in ms. */
const CHECKSUM_TIMEOUT_MS = 15_000;

/** The download record file of `component` in the versioned cache folder. */
export function componentDownloadRecordPath(directory: string, component: ComponentName): string {
  return join(directory, `${component}.download.json`);
}

/** Where Kubernetes publishes a release binary: `<base>/v<version>/bin/<os>/<arch>/<name>`. */
export function releaseBinaryUrl(
  base: string,
  version: string,
  os: string,
  arch: string,
  name: string,
): string {
  return `${base.replace(/\/+$/, '')}/v${version}/bin/${os}/${arch}/${name}`;
}

/**
 * Downloads each of `components` that `isCached` says (under the cache lock) is missing from
 * `options.kubernetesReleaseUrl` into the versioned cache folder: first its published
 * `<name>.sha512`, then the binary, streamed to a temporary file beside it while its SHA-512
 * is computed (with the envtest archive's progress), renamed into place only when it
 * matches, with `<component>.download.json` written last.
 *
 * Returns, for each component it did not download, why (the host not reachable, no such
 * release binary, a failing transfer), so the caller can build it instead. Throws
 * `ChecksumMismatchError` (the file and both checksums) for a binary that is not the
 * published one; nothing of it stays in the cache.
 */
export async function downloadComponents(
  options: ResolvedBinaryOptions,
  components: readonly ComponentName[],
  isCached: (component: ComponentName) => Promise<boolean>,
  progressStream: ProgressStream | undefined,
): Promise<Partial<Record<ComponentName, string>>> {
  const target = versionedCacheDirectory(options.cacheDirectory);
  await mkdir(target, { recursive: true });
  return withFileLock(
    `${target}.lock`,
    async () => {
      const reasons: Partial<Record<ComponentName, string>> = {};
      for (const component of components) {
        if (await isCached(component)) continue;
        const reason = await downloadComponent(component, target, options, progressStream);
        if (reason !== undefined) reasons[component] = reason;
      }
      return reasons;
    },
    (holder, waitedMs) =>
      options.logger.info(
        {},
        `waiting for process ${holder?.pid ?? '?'} to finish getting the binaries (${formatDuration(waitedMs)} so far)`,
      ),
  );
}

/** Downloads one component into `target`; `undefined` when done, else why not. */
async function downloadComponent(
  component: ComponentName,
  target: string,
  options: ResolvedBinaryOptions,
  progressStream: ProgressStream | undefined,
): Promise<string | undefined> {
  const url = releaseBinaryUrl(
    options.kubernetesReleaseUrl,
    KUBERNETES_VERSION,
    goOs(),
    goArch(),
    component,
  );
  const checksum = await fetchSha512(`${url}.sha512`);
  if ('reason' in checksum) return checksum.reason;
  const started = performance.now();
  const output = join(target, component);
  const partial = `${output}.download-${process.pid}`;
  try {
    options.logger.info({}, `downloading ${component} v${KUBERNETES_VERSION} from ${url}`);
    const failure = await fetchChecked(
      { name: component, url, sha512: checksum.sha512, checksumSource: `${url}.sha512` },
      partial,
      options.logger,
      progressStream,
    );
    if (failure !== undefined) return failure;
    await chmod(partial, 0o755);
    await rm(componentDownloadRecordPath(target, component), { force: true });
    await rename(partial, output);
    const record: ComponentDownloadRecord = {
      kubernetesVersion: KUBERNETES_VERSION,
      url,
      sha512: checksum.sha512,
      downloadedAt: new Date().toISOString(),
      downloadMs: Math.round(performance.now() - started),
    };
    await writeFile(
      componentDownloadRecordPath(target, component),
      `${JSON.stringify(record, null, 2)}\n`,
    );
    options.logger.info(
      {},
      `${component} v${KUBERNETES_VERSION} is in ${target} (${formatDuration(record.downloadMs)})`,
    );
    return undefined;
  } finally {
    await rm(partial, { force: true });
  }
}

/** The published SHA-512 at `url` (its first word, 128 hex digits), or why there is none. */
async function fetchSha512(url: string): Promise<{ sha512: string } | { reason: string }> {
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(CHECKSUM_TIMEOUT_MS) });
    text = await response.text();
    if (!response.ok) {
      return { reason: `${url} answered ${response.status} (no release binary for this version)` };
    }
  } catch (error) {
    return { reason: `${url} is not reachable (${describeFetchError(error)})` };
  }
  const sha512 = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (!/^[0-9a-f]{128}$/.test(sha512)) {
    return { reason: `${url} holds no SHA-512 (${JSON.stringify(text.slice(0, 40))})` };
  }
  return { sha512 };
}
