// Writes an object as the protobuf message of its Go type: what client-go sends for the
// typed object that json.Unmarshal of the same JSON gives.

import { wireOf } from './decode-message.js';
import { parseDuration, parseTimestamp } from './parse-go-formats.js';
import { ProtobufEncodeError } from './protobuf-encode-error.js';
import { childSpec, embedsTypeMeta, type FieldSpec, Kind, type MessageSpec } from './schema.js';
import { Wire } from './wire-reader.js';
import { WireWriter } from './wire-writer.js';

type JsonObject = Record<string, unknown>;

const knownNames = new WeakMap<MessageSpec, ReadonlySet<string>>();

/** The JSON names of a message's fields, its inline messages' included. */
function namesOf(spec: MessageSpec): ReadonlySet<string> {
  let names = knownNames.get(spec);
  if (names === undefined) {
    const set = new Set<string>();
    for (const field of spec.byNumber) {
      if (field === undefined) continue;
      if (field.kind === Kind.Inline) for (const name of namesOf(childSpec(field))) set.add(name);
      else set.add(field.name);
    }
    names = set;
    knownNames.set(spec, names);
  }
  return names;
}

/**
 * Writes the fields of `object` as message `spec`, in field-number order. `ignored` names
 * keys that are not fields (apiVersion and kind of an object whose type embeds TypeMeta).
 * Throws ProtobufEncodeError for a key the Go type does not have.
 */
export function encodeFields(
  w: WireWriter,
  spec: MessageSpec,
  object: JsonObject,
  path: string,
  ignored: ReadonlySet<string> | undefined,
): void {
  if (ignored !== undefined) {
    const names = namesOf(spec);
    for (const key of Object.keys(object)) {
      if (!names.has(key) && !ignored.has(key)) {
        throw new ProtobufEncodeError(`protobuf: ${path}.${key} is not a field of ${spec.name}`);
      }
    }
  }
  const byNumber = spec.byNumber;
  for (let number = 1; number < byNumber.length; number++) {
    const field = byNumber[number];
    if (field === undefined) continue;
    if (field.kind === Kind.Inline) {
      const sub = new WireWriter();
      encodeFields(sub, childSpec(field), object, path, undefined);
      w.tag(number, Wire.Bytes);
      w.bytes(sub.finish());
      continue;
    }
    const value = object[field.name];
    if (value === undefined || value === null) {
      // As Go's generated code, write a non-pointer field's zero value.
      if (field.alwaysWritten) encodeZero(w, number, field);
      continue;
    }
    const at = `${path}.${field.name}`;
    if (field.map) encodeMap(w, number, field, value, at);
    else if (field.repeated) {
      if (!Array.isArray(value)) throw typeError(at, 'an array', value);
      for (let i = 0; i < value.length; i++) encodeValue(w, number, field, value[i], `${at}[${i}]`);
    } else encodeValue(w, number, field, value, at);
  }
}

/** The zero value of a field Go always writes. */
function encodeZero(w: WireWriter, number: number, field: FieldSpec): void {
  switch (field.kind) {
    case Kind.String:
      w.tag(number, Wire.Bytes);
      w.uint32(0);
      return;
    case Kind.Double:
      w.tag(number, Wire.Fixed64);
      w.double(0);
      return;
    case Kind.Message:
      encodeValue(w, number, field, {}, '');
      return;
    case Kind.Quantity:
      encodeValue(w, number, field, '0', '');
      return;
    case Kind.IntOrString:
    case Kind.Duration:
      encodeValue(w, number, field, field.kind === Kind.Duration ? '0s' : 0, '');
      return;
  }
  if (wireOf(field.kind) === Wire.Varint) {
    w.tag(number, Wire.Varint);
    w.uint32(0);
  } else {
    // Time, MicroTime, RawExtension, FieldsV1: an empty message.
    w.tag(number, Wire.Bytes);
    w.uint32(0);
  }
}

function encodeMap(
  w: WireWriter,
  number: number,
  field: FieldSpec,
  value: unknown,
  at: string,
): void {
  if (typeof value !== 'object' || Array.isArray(value)) throw typeError(at, 'an object', value);
  const map = value as JsonObject;
  // Go writes map entries in key order.
  for (const key of Object.keys(map).sort()) {
    const entry = new WireWriter();
    entry.tag(1, Wire.Bytes);
    entry.string(key);
    const item = map[key];
    if (item !== null && item !== undefined) encodeValue(entry, 2, field, item, `${at}.${key}`);
    w.tag(number, Wire.Bytes);
    w.bytes(entry.finish());
  }
}

/** One value of the field's (element) kind as field `number`. */
function encodeValue(
  w: WireWriter,
  number: number,
  field: FieldSpec,
  value: unknown,
  at: string,
): void {
  const kind = field.kind;
  switch (kind) {
    case Kind.String:
      if (typeof value !== 'string') throw typeError(at, 'a string', value);
      w.tag(number, Wire.Bytes);
      w.string(value);
      return;
    case Kind.Bool:
      if (typeof value !== 'boolean') throw typeError(at, 'a boolean', value);
      w.tag(number, Wire.Varint);
      w.uint32(value ? 1 : 0);
      return;
    case Kind.Int32:
    case Kind.Int64:
    case Kind.Uint32:
    case Kind.Uint64:
      if (!Number.isInteger(value)) throw typeError(at, 'an integer', value);
      w.tag(number, Wire.Varint);
      w.int64(value as number);
      return;
    case Kind.Double:
      if (typeof value !== 'number') throw typeError(at, 'a number', value);
      w.tag(number, Wire.Fixed64);
      w.double(value);
      return;
    case Kind.Bytes:
      if (typeof value !== 'string') throw typeError(at, 'a base64 string', value);
      w.tag(number, Wire.Bytes);
      w.bytes(Buffer.from(value, 'base64'));
      return;
  }
  const sub = new WireWriter();
  if (kind === Kind.Message) encodeMessageValue(sub, childSpec(field), value, at);
  else encodeCustom(sub, kind, value, at);
  w.tag(number, wireOf(kind));
  w.bytes(sub.finish());
}

function encodeMessageValue(w: WireWriter, spec: MessageSpec, value: unknown, at: string): void {
  if (spec.wrapperKind >= 0) {
    // A named slice wrapped in a message: `repeated items = 1`.
    if (!Array.isArray(value)) throw typeError(at, 'an array', value);
    for (const item of value) {
      if (typeof item !== 'string') throw typeError(at, 'an array of strings', value);
      w.tag(1, Wire.Bytes);
      w.string(item);
    }
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw typeError(at, 'an object', value);
  }
  encodeFields(w, spec, value as JsonObject, at, embedsTypeMeta(spec) ? TYPE_META_KEYS : NO_KEYS);
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** The keys of TypeMeta, not on the wire: an object whose Go type embeds it may carry them. */
export const TYPE_META_KEYS: ReadonlySet<string> = new Set(['apiVersion', 'kind']);

/** The messages of Time, MicroTime, Duration, Quantity, IntOrString, RawExtension, FieldsV1. */
function encodeCustom(w: WireWriter, kind: number, value: unknown, at: string): void {
  switch (kind) {
    case Kind.Time:
    case Kind.MicroTime: {
      if (typeof value !== 'string') throw typeError(at, 'an RFC 3339 time', value);
      // Go reads a MicroTime with exactly six fractional digits (RFC3339Micro), a Time with any.
      const micro = kind === Kind.MicroTime;
      const time = parseTimestamp(value, micro);
      if (time === undefined) {
        throw typeError(
          at,
          micro ? 'an RFC 3339 time with 6 fractional digits' : 'an RFC 3339 time',
          value,
        );
      }
      // message Timestamp { int64 seconds = 1; int32 nanos = 2; }, both always written.
      // Time keeps whole seconds, MicroTime microseconds.
      w.tag(1, Wire.Varint);
      w.int64(time.seconds);
      w.tag(2, Wire.Varint);
      w.uint32(kind === Kind.MicroTime ? time.nanos - (time.nanos % 1000) : 0);
      return;
    }
    case Kind.Duration: {
      const ns = typeof value === 'string' ? parseDuration(value) : undefined;
      if (ns === undefined) throw typeError(at, 'a Go duration', value);
      w.tag(1, Wire.Varint);
      w.int64(Number(ns));
      return;
    }
    case Kind.Quantity:
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw typeError(at, 'a quantity', value);
      }
      w.tag(1, Wire.Bytes);
      w.string(String(value));
      return;
    case Kind.IntOrString:
      encodeIntOrString(w, value, at);
      return;
    default:
      // RawExtension, FieldsV1: the JSON text as bytes.
      w.tag(1, Wire.Bytes);
      w.string(JSON.stringify(value));
  }
}

function encodeIntOrString(w: WireWriter, value: unknown, at: string): void {
  if (typeof value === 'number' && Number.isInteger(value)) {
    w.tag(1, Wire.Varint);
    w.uint32(0);
    w.tag(2, Wire.Varint);
    w.int64(value);
    w.tag(3, Wire.Bytes);
    w.string('');
  } else if (typeof value === 'string') {
    w.tag(1, Wire.Varint);
    w.uint32(1);
    w.tag(2, Wire.Varint);
    w.uint32(0);
    w.tag(3, Wire.Bytes);
    w.string(value);
  } else throw typeError(at, 'an integer or a string', value);
}

function typeError(at: string, expected: string, value: unknown): ProtobufEncodeError {
  return new ProtobufEncodeError(
    `protobuf: ${at.slice(1)} must be ${expected}, got ${JSON.stringify(value)?.slice(0, 40)}`,
  );
}
