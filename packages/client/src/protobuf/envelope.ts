// The envelope of a protobuf answer: the `k8s\0` magic, then a runtime.Unknown holding the
// apiVersion, kind and the object's own message (read here; decoded by decode-message.ts).

import { ProtobufDecodeError } from './protobuf-decode-error.js';
import { Wire, WireReader } from './wire-reader.js';

/** The four bytes every enveloped protobuf object starts with: `k8s\0`. */
export const PROTOBUF_MAGIC: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

/** Where runtime.Unknown's fields are in the body. */
export interface Envelope {
  /** A reader over the body, to decode `raw` with. */
  reader: WireReader;
  apiVersion: string;
  kind: string;
  rawStart: number;
  rawEnd: number;
  contentEncoding: string;
}

/**
 * Reads the envelope of `body`: `k8s\0` + runtime.Unknown { TypeMeta typeMeta = 1; bytes
 * raw = 2; string contentEncoding = 3; string contentType = 4; }, checking the magic, that
 * it holds an object, and that the object is not compressed.
 */
export function readEnvelope(body: Uint8Array): Envelope {
  return readEnvelopeIn(new WireReader(body), 0, body.length);
}

/** {@link readEnvelope} of the bytes from `start` to `end` of `r` (an object inside a message). */
export function readEnvelopeIn(r: WireReader, start: number, end: number): Envelope {
  const body = r.buf;
  for (let i = 0; i < PROTOBUF_MAGIC.length; i++) {
    if (start + i >= end || body[start + i] !== PROTOBUF_MAGIC[i]) {
      throw new ProtobufDecodeError(
        `protobuf: body does not start with the k8s\\0 magic (got ${describeStart(body.subarray(start, end))})`,
      );
    }
  }
  r.pos = start + PROTOBUF_MAGIC.length;
  const envelope = readUnknown(r, end);
  if (envelope.contentEncoding !== '') {
    throw new ProtobufDecodeError(
      `protobuf: unsupported contentEncoding ${envelope.contentEncoding}`,
    );
  }
  if (envelope.rawEnd === 0)
    throw new ProtobufDecodeError('protobuf: the envelope holds no object');
  return envelope;
}

/** Whether `buf` from `start` to `end` starts with the magic of an enveloped object. */
export function startsWithMagic(buf: Uint8Array, start: number, end: number): boolean {
  return (
    end - start >= 4 &&
    buf[start] === PROTOBUF_MAGIC[0] &&
    buf[start + 1] === PROTOBUF_MAGIC[1] &&
    buf[start + 2] === PROTOBUF_MAGIC[2] &&
    buf[start + 3] === PROTOBUF_MAGIC[3]
  );
}

function readUnknown(r: WireReader, end: number): Envelope {
  const unknown: Envelope = {
    reader: r,
    apiVersion: '',
    kind: '',
    rawStart: 0,
    rawEnd: 0,
    contentEncoding: '',
  };
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | Wire.Bytes)) {
      const typeMetaEnd = r.end(end);
      while (r.pos < typeMetaEnd) {
        const inner = r.uint32();
        if (inner === ((1 << 3) | Wire.Bytes)) unknown.apiVersion = r.string(r.end(typeMetaEnd));
        else if (inner === ((2 << 3) | Wire.Bytes)) unknown.kind = r.string(r.end(typeMetaEnd));
        else r.skip(inner & 7, typeMetaEnd);
      }
    } else if (tag === ((2 << 3) | Wire.Bytes)) {
      unknown.rawEnd = r.end(end);
      unknown.rawStart = r.pos;
      r.pos = unknown.rawEnd;
    } else if (tag === ((3 << 3) | Wire.Bytes)) {
      unknown.contentEncoding = r.string(r.end(end));
    } else r.skip(tag & 7, end);
    if (r.pos > end) throw r.truncated();
  }
  return unknown;
}

function describeStart(body: Uint8Array): string {
  const head = Array.from(body.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return body.length === 0 ? 'an empty body' : head;
}
