//! Downloads the envtest release archive of this Kubernetes version into the cache, checked and whole.

import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ArchiveInvalidError } from './errors/archive-invalid-error.js';
import { fetchChecked } from './internal/fetch-checked.js';
import { formatDuration } from './internal/format.js';
import { withFileLock } from './internal/lock.js';
import { goArch, goOs } from './internal/platform.js';
import type { ProgressStream } from './internal/progress.js';
import { findArchive, type ReleaseArchive } from './internal/release-index.js';
import { extractTarGz } from './internal/tar.js';
import type { ResolvedBinaryOptions } from './options.js';
import { KUBERNETES_VERSION } from './versions.js';

/** What a finished download wrote next to the binaries (`download.json`). */
export interface DownloadRecord {
  readonly kubernetesVersion: string;
  /** The archive's name, e.g. `envtest-v1.37.2-linux-amd64.tar.gz`. */
  readonly archive: string;
  readonly url: string;
  /** Its SHA-512 (hex), as checked against the release index. */
  readonly sha512: string;
  readonly downloadedAt: string;
  readonly downloadMs: number;
}

/** The record file of a download in the versioned cache folder. */
export const DOWNLOAD_RECORD = 'download.json';

/** `downloaded`: this call put the binaries in the cache; else `reason` says why it did not. */
export type DownloadOutcome =
  | { readonly downloaded: true }
  | { readonly downloaded: false; readonly reason: string };

/**
 * Downloads this version's envtest archive for this platform from the release index
 * (`options.releaseIndexUrl`) into `target`, unless `isCached` says (under the cache lock)
 * that another process already put binaries there.
 *
 * The archive goes to a temporary file beside the cache while its SHA-512 is computed; only
 * a matching archive is extracted, into a temporary folder that is then renamed into place
 * with `download.json` written last. On any failure both are removed: nothing half-written
 * stays in the cache.
 *
 * Returns `{ downloaded: false, reason }` when there is nothing to download (index not
 * reachable, no release for this version or platform, the archive's host failing), so the
 * caller can fall back to a build. Throws `ChecksumMismatchError` for an archive that is not
 * the one the index names and `ArchiveInvalidError` for one that cannot be extracted or
 * lacks kube-apiserver or etcd.
 */
export async function downloadBinaries(
  options: ResolvedBinaryOptions,
  target: string,
  isCached: () => Promise<boolean>,
  progressStream: ProgressStream | undefined,
): Promise<DownloadOutcome> {
  const lookup = await findArchive(options.releaseIndexUrl, KUBERNETES_VERSION, goOs(), goArch());
  if (lookup.archive === undefined) return { downloaded: false, reason: lookup.reason };
  const archive = lookup.archive;
  await mkdir(options.cacheDirectory, { recursive: true });
  return withFileLock(
    `${target}.lock`,
    async (): Promise<DownloadOutcome> => {
      if (await isCached()) return { downloaded: false, reason: 'another process got them' };
      const staging = `${target}.download-${process.pid}`;
      const archivePath = `${staging}.tar.gz`;
      const started = performance.now();
      try {
        options.logger.info({}, `downloading ${archive.name} from ${archive.url}`);
        const failure = await fetchChecked(
          { ...archive, checksumSource: 'the release index' },
          archivePath,
          options.logger,
          progressStream,
        );
        if (failure !== undefined) return { downloaded: false, reason: failure };
        await mkdir(staging);
        await unpack(archive, archivePath, staging);
        const record: DownloadRecord = {
          kubernetesVersion: KUBERNETES_VERSION,
          archive: archive.name,
          url: archive.url,
          sha512: archive.sha512,
          downloadedAt: new Date().toISOString(),
          downloadMs: Math.round(performance.now() - started),
        };
        await writeFile(join(staging, DOWNLOAD_RECORD), `${JSON.stringify(record, null, 2)}\n`);
        await install(staging, target);
        options.logger.info(
          {},
          `kube-apiserver and etcd v${KUBERNETES_VERSION} are in ${target} (${formatDuration(record.downloadMs)})`,
        );
        return { downloaded: true };
      } finally {
        await rm(archivePath, { force: true });
        await rm(staging, { recursive: true, force: true });
      }
    },
    (holder, waitedMs) =>
      options.logger.info(
        {},
        `waiting for process ${holder?.pid ?? '?'} to finish getting the binaries (${formatDuration(waitedMs)} so far)`,
      ),
  );
}

async function unpack(
  archive: ReleaseArchive,
  archivePath: string,
  staging: string,
): Promise<void> {
  let written: string[];
  try {
    written = await extractTarGz(archivePath, staging);
  } catch (error) {
    throw new ArchiveInvalidError(
      archive.name,
      `cannot be extracted: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const missing = ['kube-apiserver', 'etcd'].filter((b) => !written.includes(b));
  if (missing.length > 0) {
    throw new ArchiveInvalidError(
      archive.name,
      `holds no ${missing.join(' and ')} (it has ${written.join(', ') || 'no files'})`,
    );
  }
}

/**
 * Moves the staged folder into place: a rename when `target` does not exist, else each file
 * renamed over the old one (components built earlier stay) and the record last.
 */
async function install(staging: string, target: string): Promise<void> {
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await rename(staging, target);
    return;
  }
  const names = (await readdir(staging)).filter((n) => n !== DOWNLOAD_RECORD);
  for (const name of names) await rename(join(staging, name), join(target, name));
  await rename(join(staging, DOWNLOAD_RECORD), join(target, DOWNLOAD_RECORD));
}
