//! Writes an OVA catalog folder for tests and demos: `.ovf` files and `.ova` archives with chosen mtimes.

import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type TarFile, writeTar } from './tar-writer.js';

/** A catalog file: an `.ovf`'s text, or the entries of an `.ova`. */
export type CatalogEntry = string | Uint8Array | TarFile[];

/**
 * Writes `files` (path relative to `dir` → content) under `dir`, creating folders, and sets
 * each file's mtime to `mtimeMs` (epoch ms). An array of entries becomes a tar archive.
 */
export async function writeCatalogFiles(
  dir: string,
  files: Record<string, CatalogEntry>,
  mtimeMs: number,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, Array.isArray(content) ? writeTar(content) : content);
    await utimes(full, mtimeMs / 1000, mtimeMs / 1000);
  }
}

/** A new empty folder under the OS temp dir, for a catalog. */
export function makeCatalogDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'ctrlkit-ova-'));
}
