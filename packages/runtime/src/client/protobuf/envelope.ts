// The envelope of a protobuf answer: the `k8s\0` magic, then a runtime.Unknown holding the
// apiVersion, kind and the object's own message.

import { applyDefaults, decodeFields } from './decode-message.js';
import { ProtobufDecodeError } from './protobuf-decode-error.js';
import { hasTypeMeta, rootSpec } from './schema.js';
import { Wire, WireReader } from './wire-reader.js';

/** The four bytes every enveloped protobuf object starts with: `k8s\0`. */
export const PROTOBUF_MAGIC: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

/** Where runtime.Unknown's fields are in the body. */
interface Unknown {
  apiVersion: string;
  kind: string;
  rawStart: number;
  rawEnd: number;
  contentEncoding: string;
}

/**
 * Decodes `k8s\0` + runtime.Unknown { TypeMeta typeMeta = 1; bytes raw = 2;
 * string contentEncoding = 3; string contentType = 4; } into the object its JSON would
 * parse to, with apiVersion and kind from the envelope when the kind's JSON has them.
 */
export function decodeEnvelope(body: Uint8Array): unknown {
  for (let i = 0; i < PROTOBUF_MAGIC.length; i++) {
    if (body[i] !== PROTOBUF_MAGIC[i]) {
      throw new ProtobufDecodeError(
        `protobuf: body does not start with the k8s\\0 magic (got ${describeStart(body)})`,
      );
    }
  }
  const r = new WireReader(body);
  r.pos = PROTOBUF_MAGIC.length;
  const unknown = readUnknown(r);
  if (unknown.contentEncoding !== '') {
    throw new ProtobufDecodeError(
      `protobuf: unsupported contentEncoding ${unknown.contentEncoding}`,
    );
  }
  if (unknown.rawEnd === 0) throw new ProtobufDecodeError('protobuf: the envelope holds no object');
  const spec = rootSpec(unknown.apiVersion, unknown.kind);
  if (spec === undefined) {
    throw new ProtobufDecodeError(
      `protobuf: no schema for apiVersion ${JSON.stringify(unknown.apiVersion)} kind ${JSON.stringify(unknown.kind)}`,
    );
  }
  const out: Record<string, unknown> = hasTypeMeta(spec)
    ? { kind: unknown.kind, apiVersion: unknown.apiVersion }
    : {};
  if (out.kind === '') delete out.kind;
  if (out.apiVersion === '') delete out.apiVersion;
  r.pos = unknown.rawStart;
  decodeFields(r, unknown.rawEnd, spec, out);
  applyDefaults(out, spec);
  if (unknown.kind === 'PartialObjectMetadataList') typeItems(out, unknown.apiVersion);
  return out;
}

/**
 * The items of a metadata-only list carry apiVersion and kind in JSON (the apiserver sets
 * them on each), not in protobuf (TypeMeta is not on the wire): put them back.
 */
function typeItems(list: Record<string, unknown>, apiVersion: string): void {
  const items = list.items;
  if (!Array.isArray(items)) return;
  for (let i = 0; i < items.length; i++) {
    items[i] = { kind: 'PartialObjectMetadata', apiVersion, ...(items[i] as object) };
  }
}

function readUnknown(r: WireReader): Unknown {
  const end = r.buf.length;
  const unknown: Unknown = {
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
