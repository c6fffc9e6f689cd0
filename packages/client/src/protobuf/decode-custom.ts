// The types whose JSON comes from a custom MarshalJSON: Time, MicroTime, Duration, Quantity,
// IntOrString, RawExtension, FieldsV1.

import { startsWithMagic } from './envelope.js';
import { formatDuration, formatMicroTime, formatTime, GO_ZERO_TIME_SECONDS } from './go-formats.js';
import { ProtobufDecodeError } from './protobuf-decode-error.js';
import { Kind } from './schema.js';
import { Wire, type WireReader } from './wire-reader.js';

/** Decodes the enveloped object from `start` to `end` of `r` (it may move `r.pos`). */
export type ObjectDecoder = (r: WireReader, start: number, end: number) => unknown;

/**
 * Decodes the message from `r.pos` to `end` of one of the custom kinds; `decodeObject`
 * decodes an enveloped object a RawExtension holds, from `start` to `end` of the same reader.
 */
export function decodeCustom(
  r: WireReader,
  end: number,
  kind: number,
  decodeObject: ObjectDecoder,
): unknown {
  switch (kind) {
    case Kind.Time:
    case Kind.MicroTime:
      return decodeTimestamp(r, end, kind === Kind.MicroTime);
    case Kind.Duration:
      return decodeDuration(r, end);
    case Kind.Quantity: {
      // message Quantity { optional string string = 1; }
      let text = '0';
      while (r.pos < end) {
        const tag = r.uint32();
        if (tag === ((1 << 3) | Wire.Bytes)) text = r.string(r.end(end));
        else r.skip(tag & 7, end);
      }
      return text;
    }
    case Kind.IntOrString:
      return decodeIntOrString(r, end);
    case Kind.RawExtension:
    case Kind.FieldsV1:
      return decodeRaw(r, end, kind === Kind.RawExtension, decodeObject);
  }
  throw new ProtobufDecodeError(`protobuf: unknown schema kind ${kind}`);
}

/**
 * message Timestamp { int64 seconds = 1; int32 nanos = 2; }. An empty message is Go's
 * zero time (JSON null); Time drops the nanoseconds, MicroTime keeps microseconds.
 */
function decodeTimestamp(r: WireReader, end: number, micro: boolean): string | null {
  if (r.pos === end) return null;
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | Wire.Varint)) seconds = r.int64(false);
    else if (tag === ((2 << 3) | Wire.Varint)) nanos = r.uint32() | 0;
    else r.skip(tag & 7, end);
  }
  if (!micro) return seconds === GO_ZERO_TIME_SECONDS ? null : formatTime(seconds);
  if (seconds === GO_ZERO_TIME_SECONDS && nanos < 1000) return null;
  return formatMicroTime(seconds, nanos);
}

/** message Duration { optional int64 duration = 1; } (nanoseconds) → Go's Duration.String. */
function decodeDuration(r: WireReader, end: number): string {
  let ns = 0n;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | Wire.Varint)) ns = r.bigInt64();
    else r.skip(tag & 7, end);
  }
  return formatDuration(ns);
}

/** message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; } */
function decodeIntOrString(r: WireReader, end: number): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | Wire.Varint)) type = r.int64(false);
    else if (tag === ((2 << 3) | Wire.Varint)) intVal = r.uint32() | 0;
    else if (tag === ((3 << 3) | Wire.Bytes)) strVal = r.string(r.end(end));
    else r.skip(tag & 7, end);
  }
  return type === 1 ? strVal : intVal;
}

/**
 * message RawExtension { optional bytes raw = 1; } and message FieldsV1 { optional bytes Raw = 1; }:
 * JSON writes the raw bytes as they are (null when there are none). A RawExtension's bytes may
 * also be an enveloped protobuf object (the `k8s\0` magic), decoded as such.
 */
function decodeRaw(
  r: WireReader,
  end: number,
  extension: boolean,
  decodeObject: ObjectDecoder,
): unknown {
  let start = 0;
  let rawEnd = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | Wire.Bytes)) {
      rawEnd = r.end(end);
      start = r.pos;
      r.pos = rawEnd;
    } else r.skip(tag & 7, end);
  }
  if (rawEnd === start) return null;
  if (extension && startsWithMagic(r.buf, start, rawEnd)) {
    // Read in place, not from a copy of the bytes: a watch event holds its object this way.
    return decodeObject(r, start, rawEnd);
  }
  try {
    return parseJson(r.utf8(start, rawEnd));
  } catch (error) {
    throw new ProtobufDecodeError(
      `protobuf: ${extension ? 'RawExtension' : 'FieldsV1'} bytes are not JSON`,
      { cause: error },
    );
  }
}

/** Raw JSON texts seen lately (managedFields repeat across a list's objects) and their values. */
const parsed = new Map<string, unknown>();
const PARSED_MAX = 256;

/** JSON.parse of `text`, copied from the value of an equal text parsed before when there is one. */
function parseJson(text: string): unknown {
  const known = parsed.get(text);
  if (known !== undefined) return copyJson(known);
  const value: unknown = JSON.parse(text);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(text, value);
  return copyJson(value);
}

/** A deep copy of a JSON value. */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyJson((value as Record<string, unknown>)[key]);
  return copy;
}
