//! Reads controller-tools' envtest release index and finds the archive for a version and platform.

import { loadYaml } from '@kubernetes/client-node';
import { describeFetchError } from './fetch-checked.js';

/** One archive the index lists. */
export interface ReleaseArchive {
  /** `envtest-v<version>-<os>-<arch>.tar.gz`. */
  readonly name: string;
  /** Where to download it (`selfLink`), resolved against the index URL. */
  readonly url: string;
  /** Its SHA-512, lower-case hex (`hash`). */
  readonly sha512: string;
}

/** Either the archive, or why there is none (to print before falling back to a build). */
export type ArchiveLookup =
  | { readonly archive: ReleaseArchive }
  | { readonly archive?: undefined; readonly reason: string };

/** How long fetching the index may take before the host counts as unreachable, in ms. */
const INDEX_TIMEOUT_MS = 15_000;

/** The archive name setup-envtest and controller-tools use: `envtest-v1.37.2-linux-amd64.tar.gz`. */
export function archiveName(version: string, os: string, arch: string): string {
  return `envtest-v${version}-${os}-${arch}.tar.gz`;
}

/**
 * Fetches the index at `indexUrl` (`releases: {v<version>: {<archive>: {hash, selfLink}}}`,
 * YAML or JSON) and returns the archive of `version` for `os`/`arch`, or the reason there is
 * none: the index is unreachable or unreadable, or it has no such release. Never throws.
 */
export async function findArchive(
  indexUrl: string,
  version: string,
  os: string,
  arch: string,
): Promise<ArchiveLookup> {
  let text: string;
  try {
    const response = await fetch(indexUrl, { signal: AbortSignal.timeout(INDEX_TIMEOUT_MS) });
    text = await response.text();
    if (!response.ok) {
      return { reason: `the release index ${indexUrl} answered ${response.status}` };
    }
  } catch (error) {
    return {
      reason: `the release index ${indexUrl} is not reachable (${describeFetchError(error)})`,
    };
  }
  let index: unknown;
  try {
    index = loadYaml(text);
  } catch (error) {
    return { reason: `the release index ${indexUrl} is not YAML (${describeFetchError(error)})` };
  }
  const releases = field(index, 'releases');
  if (releases === undefined) {
    return { reason: `the release index ${indexUrl} has no releases map` };
  }
  const name = archiveName(version, os, arch);
  const entry = field(field(releases, `v${version}`), name);
  const hash = field(entry, 'hash');
  const selfLink = field(entry, 'selfLink');
  if (typeof hash !== 'string' || typeof selfLink !== 'string') {
    return { reason: `the release index ${indexUrl} has no ${name} (no release for this version)` };
  }
  return {
    archive: { name, url: new URL(selfLink, indexUrl).href, sha512: hash.toLowerCase() },
  };
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}
