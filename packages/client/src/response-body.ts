//! Reading an answer's body: gunzipped as it arrives, whole, or chunk by chunk.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * The output chunk of the gunzip stream: 64 KiB, four times zlib's default, so that a large
 * LIST (megabytes) is handed on in a quarter of the chunks (each a hop from zlib's thread).
 */
const GUNZIP_CHUNK_BYTES = 64 * 1024;

/** The body of `response`, gunzipped as it arrives when the server compressed it. */
export function decoded(response: IncomingMessage): Readable {
  return decodedStream(response, response.headers);
}

/** `body` (an HTTP/1.1 answer or an HTTP/2 stream), gunzipped as it arrives when `headers` say it is compressed. */
export function decodedStream(body: Readable, headers: IncomingHttpHeaders): Readable {
  if (headers['content-encoding'] !== 'gzip') return body;
  const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
  body.on('error', (error) => gunzip.destroy(error));
  body.on('aborted', () =>
    gunzip.destroy(new Error('connection aborted while reading the response')),
  );
  return body.pipe(gunzip);
}

const HEAD_BYTES = 8192;
const ITEMS_FIELD = Buffer.from('"items":');

/**
 * Reads a body: whole (resolving to it), or handed chunk by chunk to `onChunk` (resolving
 * to an empty buffer; an exception from `onChunk` rejects and closes the stream). `onHead`
 * is called once with the first bytes (at least 8 KiB, or up to `"items":`, or all of it).
 */
export function readBody(
  response: Readable,
  onHead?: (head: Buffer) => void,
  onChunk?: (chunk: Buffer) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let head = onHead;
    const callHead = (buffer: Buffer): void => {
      const callback = head;
      head = undefined;
      try {
        callback?.(buffer);
      } catch {
        // A failing observer does not fail the request.
      }
    };
    response.on('data', (chunk: Buffer) => {
      if (head !== undefined || onChunk === undefined) {
        chunks.push(chunk);
        length += chunk.length;
      }
      if (head !== undefined && (length >= HEAD_BYTES || chunk.includes(ITEMS_FIELD))) {
        callHead(chunks.length === 1 ? chunk : Buffer.concat(chunks, length));
      }
      if (onChunk !== undefined) {
        if (head === undefined) chunks.length = 0;
        try {
          onChunk(chunk);
        } catch (error) {
          response.destroy();
          reject(error);
        }
      }
    });
    response.on('end', () => {
      const body =
        onChunk !== undefined
          ? Buffer.alloc(0)
          : chunks.length === 1
            ? (chunks[0] as Buffer)
            : Buffer.concat(chunks, length);
      if (head !== undefined) callHead(onChunk !== undefined ? Buffer.concat(chunks) : body);
      resolve(body);
    });
    response.on('error', reject);
    response.on('aborted', () =>
      reject(new Error('connection aborted while reading the response')),
    );
  });
}
