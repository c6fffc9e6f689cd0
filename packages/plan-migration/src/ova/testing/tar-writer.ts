//! A tiny ustar writer for tests: builds `.ova` archives in memory.

const BLOCK = 512;

/** A file to put in a tar archive. */
export interface TarFile {
  name: string;
  content: string | Uint8Array;
}

/**
 * Builds a ustar archive of `files`, in order (names up to 100 bytes, or longer through a pax
 * `path` record). For tests: the OVA reader is tested against archives built by this.
 */
export function writeTar(files: TarFile[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of files) {
    const data =
      typeof file.content === 'string'
        ? Buffer.from(file.content, 'utf8')
        : Buffer.from(file.content);
    if (Buffer.byteLength(file.name) > 100) {
      const record = paxRecord('path', file.name);
      blocks.push(header('PaxHeader', record.length, 'x'), pad(record));
    }
    blocks.push(header(file.name.slice(0, 100), data.length, '0'), pad(data));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(blocks);
}

function header(name: string, size: number, type: string): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  h.write(`${(0).toString(8).padStart(11, '0')}\0`, 136, 'latin1');
  h.write('        ', 148, 'latin1');
  h.write(type, 156, 'latin1');
  h.write('ustar\0' + '00', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

function pad(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - rest)]);
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  length += String(length).length;
  if (String(length).length !== String(length - String(length).length).length) length += 1;
  return Buffer.from(`${length}${body}`, 'utf8');
}
