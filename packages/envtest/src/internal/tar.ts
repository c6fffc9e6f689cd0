//! Extracts the regular files of a .tar.gz into one folder, as setup-envtest does (paths dropped).

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(chunks: AsyncIterable<Buffer>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** Whether the stream has ended with nothing left over. */
  async atEnd(): Promise<boolean> {
    return this.#buffer.length === 0 && !(await this.#fill());
  }

  async read(length: number): Promise<Buffer> {
    while (this.#buffer.length < length) {
      if (!(await this.#fill())) throw new Error('unexpected end of the archive');
    }
    const out = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return out;
  }

  /** Yields the next `length` bytes in pieces, without gathering them. */
  async *take(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (this.#buffer.length === 0 && !(await this.#fill())) {
        throw new Error('unexpected end of the archive');
      }
      const piece = this.#buffer.subarray(0, Math.min(left, this.#buffer.length));
      this.#buffer = this.#buffer.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  async #fill(): Promise<boolean> {
    const next = await this.#chunks.next();
    if (next.done) return false;
    this.#buffer =
      this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value]);
    return true;
  }
}

interface Header {
  readonly name: string;
  readonly mode: number;
  readonly size: number;
  readonly type: string;
}

/**
 * Writes every regular file of the gzip-compressed tar `archivePath` into `directory` under
 * its base name (`controller-tools/envtest/etcd` becomes `etcd`), keeping its execute bits;
 * skips folders, links and other entries. Reads ustar, GNU long names and pax `path` records.
 * Returns the names written. Throws on a broken gzip stream, a header whose checksum is
 * wrong, or an archive that ends early.
 */
export async function extractTarGz(archivePath: string, directory: string): Promise<string[]> {
  const reader = new ByteReader(createReadStream(archivePath).pipe(createGunzip()));
  const written: string[] = [];
  let longName: string | undefined;
  for (;;) {
    if (await reader.atEnd()) break;
    const block = await reader.read(BLOCK);
    if (block.every((b) => b === 0)) break;
    const header = parseHeader(block);
    const padded = Math.ceil(header.size / BLOCK) * BLOCK;
    if (header.type === 'L' || header.type === 'x') {
      const body = await reader.read(padded);
      const text = body.subarray(0, header.size).toString('utf8');
      longName = header.type === 'L' ? text.replace(/\0.*$/s, '') : paxPath(text);
      continue;
    }
    const name = basename(longName ?? header.name);
    longName = undefined;
    if ((header.type === '0' || header.type === '\0' || header.type === '7') && name !== '') {
      const file = await open(join(directory, name), 'w', header.mode & 0o755);
      try {
        for await (const piece of reader.take(header.size)) await file.write(piece);
      } finally {
        await file.close();
      }
      await reader.read(padded - header.size);
      written.push(name);
    } else {
      for await (const _ of reader.take(padded)) {
        // skipped: folders, links, devices, global pax headers
      }
    }
  }
  return written;
}

function parseHeader(block: Buffer): Header {
  const stored = octal(block.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  if (stored !== sum)
    throw new Error(`a tar header's checksum is ${stored}, its bytes sum to ${sum}`);
  const text = (from: number, to: number) =>
    block.subarray(from, to).toString('utf8').replace(/\0.*$/s, '');
  const magic = text(257, 263);
  const prefix = magic.startsWith('ustar') ? text(345, 500) : '';
  const name = text(0, 100);
  return {
    name: prefix === '' ? name : `${prefix}/${name}`,
    mode: octal(block.subarray(100, 108)),
    size: size(block.subarray(124, 136)),
    type: String.fromCharCode(block[156]!),
  };
}

function octal(field: Buffer): number {
  const text = field
    .toString('ascii')
    .replace(/[\0 ]+$/, '')
    .trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** A size field: octal, or base-256 when the high bit of the first byte is set (GNU). */
function size(field: Buffer): number {
  if ((field[0]! & 0x80) === 0) return octal(field);
  let value = field[0]! & 0x7f;
  for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
  return value;
}

/** The `path` record of a pax extended header (`<length> path=<value>\n`), if any. */
function paxPath(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}
