//! Reads the entries of a tar archive (an `.ova`) from their headers, without reading what it skips.

import { open } from 'node:fs/promises';
import { OvaError } from '../ova-error.js';

const BLOCK = 512;

/** One regular file in a tar archive. */
export interface TarEntry {
  /** The entry's path inside the archive (pax `path` and GNU long names applied). */
  name: string;
  /** Its size in bytes. */
  size: number;
  /** Where its data starts in the archive, in bytes. */
  offset: number;
}

/**
 * Finds the first regular file of the tar archive at `path` whose name satisfies `match`, and
 * reads its content. Only headers are read on the way, so a multi-GiB `.ova` costs a few
 * reads. Returns undefined when no entry matches.
 *
 * Errors: `OvaError` `MalformedArchive` for a header whose checksum is wrong, or an entry or
 * header cut short; file-system errors are thrown as they come.
 */
export async function readFirstTarEntry(
  path: string,
  match: (name: string) => boolean,
): Promise<{ entry: TarEntry; content: Buffer } | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (offset: number, length: number): Promise<Buffer> => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      if (bytesRead !== length) {
        throw new OvaError('MalformedArchive', `${path}: tar entry cut short at byte ${offset}`, {
          file: path,
        });
      }
      return buffer;
    };
    let offset = 0;
    let longName: string | undefined;
    while (offset + BLOCK <= size) {
      const header = await read(offset, BLOCK);
      if (header.every((b) => b === 0)) return undefined; // end of archive
      checkChecksum(header, path, offset);
      const entrySize = parseNumber(header.subarray(124, 136));
      const type = String.fromCharCode(header[156] ?? 0);
      const dataOffset = offset + BLOCK;
      const next = dataOffset + Math.ceil(entrySize / BLOCK) * BLOCK;
      if (type === 'L' || type === 'x') {
        const data = await read(dataOffset, entrySize);
        longName = type === 'L' ? cString(data) : (paxPath(data) ?? longName);
      } else {
        const name = longName ?? ustarName(header);
        longName = undefined;
        if ((type === '0' || type === '\0' || type === '7') && match(name)) {
          const entry = { name, size: entrySize, offset: dataOffset };
          return { entry, content: await read(dataOffset, entrySize) };
        }
      }
      offset = next;
    }
    if (offset < size) {
      throw new OvaError('MalformedArchive', `${path}: not a tar archive (ends inside a header)`, {
        file: path,
      });
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

function checkChecksum(header: Buffer, path: string, offset: number): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  const stored = parseNumber(header.subarray(148, 156));
  if (stored !== sum) {
    throw new OvaError(
      'MalformedArchive',
      `${path}: not a tar archive (bad header checksum at byte ${offset})`,
      { file: path },
    );
  }
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8');
}

function ustarName(header: Buffer): string {
  const name = cString(header.subarray(0, 100));
  const magic = header.subarray(257, 262).toString('latin1');
  const prefix = magic === 'ustar' ? cString(header.subarray(345, 500)) : '';
  return prefix === '' ? name : `${prefix}/${name}`;
}

/** An octal field, or GNU base-256 when its high bit is set. */
function parseNumber(field: Buffer): number {
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let value = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const text = cString(field).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** The `path` record of a pax extended header (`<length> path=<value>\n` records). */
function paxPath(data: Buffer): string | undefined {
  let at = 0;
  let path: string | undefined;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString('latin1'), 10);
    if (!(length > 0)) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    at += length;
  }
  return path;
}
