// Decodes one protobuf message into the object encoding/json writes for the same Go value.

import { decodeCustom } from './decode-custom.js';
import { type Envelope, readEnvelope, readEnvelopeIn } from './envelope.js';
import { compileFieldsDecoder } from './fields-decoder.js';
import { ProtobufDecodeError } from './protobuf-decode-error.js';
import {
  Absent,
  childSpec,
  type FieldSpec,
  hasTypeMeta,
  Kind,
  type MessageSpec,
  rootSpec,
  wireOf,
} from './schema.js';
import { Wire, type WireReader } from './wire-reader.js';

type JsonObject = Record<string, unknown>;

/** The message whose `managedFields` a decode may leave out. */
const OBJECT_META = 'meta/v1.ObjectMeta';
/** Whether the decode running now leaves every `metadata.managedFields` out (see {@link withoutManagedFields}). */
let skippingManagedFields = false;

/**
 * Runs `decode` leaving `metadata.managedFields` out of every object it decodes: their
 * bytes are skipped, not decoded and dropped (the informers' default transform drops them).
 */
export function withoutManagedFields<T>(decode: () => T): T {
  skippingManagedFields = true;
  try {
    return decode();
  } finally {
    skippingManagedFields = false;
  }
}

/**
 * A whole enveloped object (`k8s\0` + runtime.Unknown) into the object its JSON would parse
 * to, with apiVersion and kind from the envelope when the kind's JSON has them.
 */
export function decodeEnvelope(body: Uint8Array): unknown {
  return decodeEnveloped(readEnvelope(body));
}

/** {@link decodeEnvelope} of the bytes from `start` to `end` of `r` (a RawExtension's object). */
function decodeEnvelopeIn(r: WireReader, start: number, end: number): unknown {
  return decodeEnveloped(readEnvelopeIn(r, start, end));
}

function decodeEnveloped(envelope: Envelope): unknown {
  const spec = rootSpec(envelope.apiVersion, envelope.kind);
  if (spec === undefined) {
    throw new ProtobufDecodeError(
      `protobuf: no schema for apiVersion ${JSON.stringify(envelope.apiVersion)} kind ${JSON.stringify(envelope.kind)}`,
    );
  }
  const out = typedObject(
    hasTypeMeta(spec) ? envelope.kind : '',
    hasTypeMeta(spec) ? envelope.apiVersion : '',
  );
  const r = envelope.reader;
  r.pos = envelope.rawStart;
  decodeFields(r, envelope.rawEnd, spec, out);
  applyDefaults(out, spec);
  if (envelope.kind === 'PartialObjectMetadataList') typeItems(out, envelope.apiVersion);
  return out;
}

/**
 * A new object holding `kind` and `apiVersion` (each only when not empty), first, as JSON has
 * them. Made empty and then assigned: V8 gives an empty literal four in-object fields, where
 * `{ kind, apiVersion }` gets two and the object's other fields go to a second, out-of-object
 * array (one more object per cached object to allocate and to mark).
 */
export function typedObject(kind: string, apiVersion: string): JsonObject {
  const out: JsonObject = {};
  if (kind !== '') out.kind = kind;
  if (apiVersion !== '') out.apiVersion = apiVersion;
  return out;
}

/**
 * The items of a metadata-only list carry apiVersion and kind in JSON (the apiserver sets
 * them on each), not in protobuf (TypeMeta is not on the wire): put them back.
 */
function typeItems(list: JsonObject, apiVersion: string): void {
  const items = list.items;
  if (!Array.isArray(items)) return;
  for (let i = 0; i < items.length; i++) {
    items[i] = { kind: 'PartialObjectMetadata', apiVersion, ...(items[i] as object) };
  }
}

/** Decodes the message from `r.pos` to `end` into a new object, defaults filled in. */
export function decodeMessage(r: WireReader, end: number, spec: MessageSpec): unknown {
  if (spec.wrapperKind >= 0) return decodeWrapper(r, end, spec);
  const out: JsonObject = {};
  decodeFields(r, end, spec, out);
  applyDefaults(out, spec);
  return out;
}

/**
 * Reads the fields from `r.pos` to `end` into `out`; the caller fills in the absent ones
 * with {@link applyDefaults}. Unknown field numbers are skipped, as Go does. Runs the
 * message's compiled decoder (fields-decoder.ts), made on first use.
 */
export function decodeFields(r: WireReader, end: number, spec: MessageSpec, out: JsonObject): void {
  let decode = spec.fieldsDecoder;
  if (decode === undefined) {
    decode = compileFieldsDecoder(spec, {
      field: (r, end, tag, out) => decodeField(r, end, spec, out, tag),
      value: (r, end, field) => decodeValue(r, end, field.kind, field),
    });
    spec.fieldsDecoder = decode;
  }
  decode(r, end, out);
}

/** One field of any kind, whose tag has been read: the general path of the compiled decoders. */
function decodeField(
  r: WireReader,
  end: number,
  spec: MessageSpec,
  out: JsonObject,
  tag: number,
): void {
  const wire = tag & 7;
  const field = spec.byNumber[tag >>> 3];
  if (field === undefined) r.skip(wire, end);
  else if (field.map) decodeMapEntry(r, end, field, wire, spec, out);
  else if (field.repeated) {
    if (skippingManagedFields && field.name === 'managedFields' && spec.name === OBJECT_META)
      r.skip(wire, end);
    else decodeRepeated(r, end, field, wire, spec, out);
  } else if (field.kind === Kind.Inline) {
    expectWire(field, wire, Wire.Bytes, spec);
    const valueEnd = r.end(end);
    decodeFields(r, valueEnd, childSpec(field), out);
    r.pos = valueEnd;
  } else {
    expectWire(field, wire, wireOf(field.kind), spec);
    const value = decodeValue(r, end, field.kind, field);
    if (!field.dropWhenZero || !isZero(value)) out[field.name] = value;
  }
}

/** One value of `kind` (wire type already checked). */
function decodeValue(r: WireReader, end: number, kind: number, field: FieldSpec): unknown {
  switch (kind) {
    case Kind.String:
      return r.string(r.end(end));
    case Kind.Bool:
      return r.uint32() !== 0;
    case Kind.Int32:
      return r.uint32() | 0;
    case Kind.Int64:
      return r.int64(false);
    case Kind.Uint32:
    case Kind.Uint64:
      return r.int64(true);
    case Kind.Double:
      if (r.pos + 8 > end) throw r.truncated();
      return r.double();
    case Kind.Bytes:
      return r.base64(r.end(end));
    case Kind.Message: {
      const valueEnd = r.end(end);
      const value = decodeMessage(r, valueEnd, childSpec(field));
      r.pos = valueEnd;
      return value;
    }
    default: {
      const valueEnd = r.end(end);
      const value = decodeCustom(r, valueEnd, kind, decodeEnvelopeIn);
      r.pos = valueEnd;
      return value;
    }
  }
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false || value === null;
}

function decodeRepeated(
  r: WireReader,
  end: number,
  field: FieldSpec,
  wire: number,
  spec: MessageSpec,
  out: JsonObject,
): void {
  let list = out[field.name] as unknown[] | undefined;
  if (list === undefined) {
    list = [];
    out[field.name] = list;
  }
  const expected = wireOf(field.kind);
  if (wire === Wire.Bytes && expected !== Wire.Bytes) {
    // A packed run of varints or doubles.
    const valueEnd = r.end(end);
    while (r.pos < valueEnd) list.push(decodeValue(r, valueEnd, field.kind, field));
    if (r.pos !== valueEnd) throw r.truncated();
    return;
  }
  expectWire(field, wire, expected, spec);
  list.push(decodeValue(r, end, field.kind, field));
}

function decodeMapEntry(
  r: WireReader,
  end: number,
  field: FieldSpec,
  wire: number,
  spec: MessageSpec,
  out: JsonObject,
): void {
  expectWire(field, wire, Wire.Bytes, spec);
  let map = out[field.name] as JsonObject | undefined;
  if (map === undefined) {
    map = {};
    out[field.name] = map;
  }
  const entryEnd = r.end(end);
  let key = '';
  let value: unknown;
  while (r.pos < entryEnd) {
    const tag = r.uint32();
    const entryWire = tag & 7;
    if (tag >>> 3 === 1) {
      if (entryWire !== Wire.Bytes) throw wireError(spec, field, entryWire, Wire.Bytes);
      key = r.string(r.end(entryEnd));
    } else if (tag >>> 3 === 2) {
      expectWire(field, entryWire, wireOf(field.kind), spec);
      value = decodeValue(r, entryEnd, field.kind, field);
    } else r.skip(entryWire, entryEnd);
    if (r.pos > entryEnd) throw r.truncated();
  }
  map[key] = value === undefined ? zeroOf(field) : value;
}

/**
 * A named slice wrapped in a message (`message ExtraValue { repeated string items = 1; }`):
 * JSON writes the array. Go reads a present but empty message as an empty, non-nil slice.
 */
function decodeWrapper(r: WireReader, end: number, spec: MessageSpec): unknown[] {
  const items: unknown[] = [];
  const kind = spec.wrapperKind;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag >>> 3 !== 1) {
      r.skip(tag & 7, end);
      continue;
    }
    if ((tag & 7) !== wireOf(kind)) {
      throw new ProtobufDecodeError(`protobuf: ${spec.name}.items has wire type ${tag & 7}`);
    }
    items.push(kind === Kind.String ? r.string(r.end(end)) : r.int64(false));
    if (r.pos > end) throw r.truncated();
  }
  return items;
}

/** Writes the JSON of every field that was absent from the wire but appears in JSON. */
export function applyDefaults(out: JsonObject, spec: MessageSpec): void {
  const defaults = spec.defaults;
  for (let i = 0; i < defaults.length; i++) {
    const field = defaults[i]!;
    if (out[field.name] === undefined) {
      out[field.name] = field.absent === Absent.Null ? null : zeroOf(field);
    }
  }
  const inlines = spec.inlines;
  for (let i = 0; i < inlines.length; i++) applyDefaults(out, childSpec(inlines[i]!));
}

/** The JSON of a Go zero value of the field's (element) kind. */
function zeroOf(field: FieldSpec): unknown {
  switch (field.kind) {
    case Kind.String:
    case Kind.Bytes:
      return '';
    case Kind.Bool:
      return false;
    case Kind.Quantity:
      return '0';
    case Kind.Duration:
      return '0s';
    case Kind.Time:
    case Kind.MicroTime:
    case Kind.RawExtension:
    case Kind.FieldsV1:
      return null;
    case Kind.Message: {
      const spec = childSpec(field);
      if (spec.wrapperKind >= 0) return null;
      const out: JsonObject = {};
      applyDefaults(out, spec);
      return out;
    }
    default:
      return 0;
  }
}

function expectWire(field: FieldSpec, wire: number, expected: number, spec: MessageSpec): void {
  if (wire !== expected) throw wireError(spec, field, wire, expected);
}

function wireError(
  spec: MessageSpec,
  field: FieldSpec,
  wire: number,
  expected: number,
): ProtobufDecodeError {
  return new ProtobufDecodeError(
    `protobuf: ${spec.name}.${field.name || field.ref} has wire type ${wire}, expected ${expected}`,
  );
}
