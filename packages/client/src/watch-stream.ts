//! Decodes a watch response: newline-delimited JSON events, or length-prefixed protobuf frames, handed over in order.

import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { WatchStreamError } from './errors/watch-stream-error.js';
import { decodeProtobufWatchEvent } from './protobuf/decode.js';
import type { AnswerHead } from './transport.js';

/** One decoded watch event, as the apiserver sends it. */
export interface RawWatchEvent {
  readonly type: string;
  readonly object: unknown;
}

/** Splits a watch body into events: fed its chunks in order, then told of its end. */
interface EventFramer {
  push(chunk: Buffer, onEvent: (event: RawWatchEvent) => void): void;
  end(onEvent: (event: RawWatchEvent) => void): void;
}

/** How a watch body is decoded. */
export interface WatchDecoding {
  /** The body is protobuf frames (else JSON lines). Default `false`. */
  readonly protobuf?: boolean;
  /** Protobuf objects come without `metadata.managedFields` (left out while decoding). Default `false`. */
  readonly dropManagedFields?: boolean;
}

/**
 * Calls `onEvent` for each event of `stream` (the decoded body of `response`: JSON lines,
 * or protobuf frames as `decoding` says), in order. Resolves when the server ends the stream;
 * rejects on a broken connection, a malformed event (`WatchStreamError`) or an exception
 * from `onEvent` (the connection is closed then); `idleError()` names the idle timeout
 * when that is what closed it.
 */
export function readWatchStream(
  url: string,
  response: AnswerHead,
  stream: Readable,
  onEvent: (event: RawWatchEvent) => void,
  idleError: () => Error | undefined,
  decoding: WatchDecoding = {},
): Promise<void> {
  const framer: EventFramer =
    decoding.protobuf === true
      ? new ProtobufFramer(decoding.dropManagedFields === true)
      : new JsonLineFramer();
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      response.destroy();
      // The idle timeout destroys the connection: say so, not "aborted" or "closed".
      reject(idleError() ?? error);
    };
    const emit = (event: RawWatchEvent): void => {
      if (!settled) onEvent(event);
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        framer.push(chunk, emit);
      } catch (error) {
        fail(error);
      }
    });
    stream.on('end', () => {
      if (settled) return;
      try {
        framer.end(emit);
      } catch (error) {
        fail(error);
        return;
      }
      settled = true;
      resolve();
    });
    stream.on('error', fail);
    response.on('aborted', () => fail(new WatchStreamError(`WATCH ${url}: connection aborted`)));
    stream.on('close', () => {
      if (!settled)
        fail(new WatchStreamError(`WATCH ${url}: connection closed before the end of the stream`));
    });
  });
}

/** JSON watch events, one per line (`application/json;stream=watch`). */
class JsonLineFramer implements EventFramer {
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';

  push(bytes: Buffer, onEvent: (event: RawWatchEvent) => void): void {
    const chunk = this.#decoder.write(bytes);
    let start = 0;
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      this.#pending += chunk;
      return;
    }
    while (newline !== -1) {
      const line =
        this.#pending === ''
          ? chunk.slice(start, newline)
          : this.#pending + chunk.slice(start, newline);
      this.#pending = '';
      if (line.length > 0) onEvent(parseEvent(line));
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    this.#pending = chunk.slice(start);
  }

  end(onEvent: (event: RawWatchEvent) => void): void {
    const rest = this.#pending + this.#decoder.end();
    this.#pending = '';
    if (rest.trim().length > 0) onEvent(parseEvent(rest));
  }
}

/** The bytes of a protobuf frame's length prefix (big-endian). */
const FRAME_LENGTH_BYTES = 4;

/** Protobuf watch events, each a frame after its 4-byte big-endian length (`application/vnd.kubernetes.protobuf;stream=watch`). */
class ProtobufFramer implements EventFramer {
  /** The bytes received but not decoded yet: a partial frame, in chunks. */
  #chunks: Buffer[] = [];
  #length = 0;
  /** The bytes the next frame needs, its length prefix included, as far as known. */
  #needed = FRAME_LENGTH_BYTES;
  readonly #decoding: { dropManagedFields: boolean };

  constructor(dropManagedFields: boolean) {
    this.#decoding = { dropManagedFields };
  }

  push(chunk: Buffer, onEvent: (event: RawWatchEvent) => void): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.#length < this.#needed) return;
    let buffer = this.#chunks.length === 1 ? chunk : Buffer.concat(this.#chunks, this.#length);
    let needed = FRAME_LENGTH_BYTES;
    while (buffer.length >= FRAME_LENGTH_BYTES) {
      needed = FRAME_LENGTH_BYTES + buffer.readUInt32BE(0);
      if (buffer.length < needed) break;
      onEvent(decodeFrame(buffer.subarray(FRAME_LENGTH_BYTES, needed), this.#decoding));
      buffer = buffer.subarray(needed);
      needed = FRAME_LENGTH_BYTES;
    }
    this.#chunks = buffer.length === 0 ? [] : [buffer];
    this.#length = buffer.length;
    this.#needed = needed;
  }

  end(): void {
    if (this.#length > 0)
      throw new WatchStreamError(
        `a watch stream ended inside a protobuf frame (${this.#length} bytes left)`,
      );
  }
}

function decodeFrame(frame: Buffer, options: { dropManagedFields: boolean }): RawWatchEvent {
  try {
    return decodeProtobufWatchEvent(frame, options);
  } catch (error) {
    throw new WatchStreamError(`a protobuf watch frame of ${frame.length} bytes is malformed`, {
      cause: error,
    });
  }
}

function parseEvent(line: string): RawWatchEvent {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch (error) {
    throw new WatchStreamError(`a watch line is not JSON: ${line.slice(0, 120)}`, { cause: error });
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof (event as RawWatchEvent).type !== 'string'
  ) {
    throw new WatchStreamError(`a watch line is not an event: ${line.slice(0, 120)}`);
  }
  return event as RawWatchEvent;
}
