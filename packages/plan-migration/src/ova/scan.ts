//! Finds the appliances of an OVA catalog folder as Forklift's OVA provider does: `*.ova` to depth 2, `*.ovf` to depth 3, complete files only.

import type { Dirent, Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { Clock } from '@ctrlkit/core';
import { readFirstTarEntry } from './internal/tar.js';
import { OvaError } from './ova-error.js';
import { type OvfEnvelope, parseOvf } from './ovf-parser.js';

/** Upstream's deepest `*.ova`: 2 (a file in a folder of the catalog). */
export const OVA_MAX_DEPTH = 2;
/** Upstream's deepest `*.ovf`: 3. */
export const OVF_MAX_DEPTH = 3;
/** A file changed more recently than this is still being copied and is skipped: 30 s, as upstream. */
export const DEFAULT_OVA_MIN_FILE_AGE_MS = 30_000;

/** An appliance file of the catalog, with what `stat` says of it. */
export interface CatalogFile {
  path: string;
  kind: 'ova' | 'ovf';
  size: number;
  mtimeMs: number;
  /** False while the file is empty or changed less than `minFileAgeMs` ago. */
  complete: boolean;
}

/**
 * Lists the catalog's `*.ova` (depth ≤ 2) and `*.ovf` (depth ≤ 3) files, extension matched
 * case-insensitively, `.ova` files first, each group in path order (upstream's walk order).
 * Unreadable sub-folders are skipped.
 *
 * Errors: `OvaError` `CatalogNotFound` when `catalogPath` is missing or not a readable folder.
 */
export async function listCatalog(
  catalogPath: string,
  clock: Clock,
  minFileAgeMs = DEFAULT_OVA_MIN_FILE_AGE_MS,
): Promise<CatalogFile[]> {
  const ova: CatalogFile[] = [];
  const ovf: CatalogFile[] = [];
  const now = clock.now();
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (cause) {
      if (depth === 1) {
        throw new OvaError(
          'CatalogNotFound',
          `catalog folder ${catalogPath} cannot be read: ${(cause as Error).message}`,
          { file: catalogPath, cause },
        );
      }
      return; // as upstream: an unreadable sub-folder is skipped
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < OVF_MAX_DEPTH) await walk(path, depth + 1);
        continue;
      }
      const ext = extname(entry.name).toLowerCase();
      const kind =
        ext === '.ova' && depth <= OVA_MAX_DEPTH ? 'ova' : ext === '.ovf' ? 'ovf' : undefined;
      if (kind === undefined) continue;
      let info: Stats;
      try {
        info = await stat(path);
      } catch {
        continue; // gone, or a dangling link: not complete
      }
      const file = {
        path,
        kind,
        size: info.size,
        mtimeMs: info.mtimeMs,
        complete: info.size > 0 && now - info.mtimeMs > minFileAgeMs,
      } as const;
      (kind === 'ova' ? ova : ovf).push(file);
    }
  };
  await walk(catalogPath, 1);
  return [...ova, ...ovf];
}

/**
 * Reads a catalog file's OVF descriptor: the first `*.ovf` entry of an `.ova` tar, or the
 * `.ovf` file itself.
 *
 * Errors: `OvaError` `MalformedArchive`, `OvfNotFound` (an `.ova` with no `*.ovf` entry),
 * `MalformedOvf`, `UnresolvedProperty`; file-system errors as they come.
 */
export async function readAppliance(
  file: Pick<CatalogFile, 'path' | 'kind'>,
): Promise<OvfEnvelope> {
  if (file.kind === 'ovf') return parseOvf(await readFile(file.path, 'utf8'), file.path);
  const found = await readFirstTarEntry(file.path, (name) => name.toLowerCase().endsWith('.ovf'));
  if (found === undefined) {
    throw new OvaError('OvfNotFound', `${file.path}: the archive holds no *.ovf descriptor`, {
      file: file.path,
    });
  }
  return parseOvf(found.content.toString('utf8'), file.path);
}

/** A file's path relative to the catalog, for messages. */
export function catalogRelative(catalogPath: string, path: string): string {
  const rel = relative(catalogPath, path);
  return rel === '' || rel.startsWith(`..${sep}`) ? path : rel;
}
