// Compiles a message's field loop to JavaScript: one `switch` on the tag with the JSON name
// of each field as a constant property, so that V8 sees a named store per field and one
// object shape per message instead of a keyed store shared by every message (the same
// technique as protobufjs's generated decoders). Made once per message, on first use.

import { type FieldSpec, type FieldsDecoder, Kind, type MessageSpec, wireOf } from './schema.js';
import type { WireReader } from './wire-reader.js';

/** What the compiled code calls for the fields it does not read inline. */
export interface FieldsDecoderHelpers {
  /** Any field by its tag (maps, repeated, inline, unknown, an unexpected wire type). */
  field(r: WireReader, end: number, tag: number, out: Record<string, unknown>): void;
  /** One value of a singular field of a message or custom kind. */
  value(r: WireReader, end: number, field: FieldSpec): unknown;
}

/** The expression that reads one value of a scalar kind, or undefined for the other kinds. */
function scalarRead(kind: number): string | undefined {
  switch (kind) {
    case Kind.String:
      return 'r.string(r.end(end))';
    case Kind.Bool:
      return 'r.uint32() !== 0';
    case Kind.Int32:
      return 'r.uint32() | 0';
    case Kind.Int64:
      return 'r.int64(false)';
    case Kind.Uint32:
    case Kind.Uint64:
      return 'r.int64(true)';
    case Kind.Bytes:
      return 'r.base64(r.end(end))';
  }
  return undefined;
}

/** The `case` of one singular field read at its expected wire type, or '' to leave it to `h.field`. */
function fieldCase(field: FieldSpec, index: number, number: number): string {
  if (field.map || field.repeated || field.kind === Kind.Inline || field.kind === Kind.Double) {
    return '';
  }
  const tag = (number << 3) | wireOf(field.kind);
  const read = scalarRead(field.kind) ?? `h.value(r, end, F[${index}])`;
  const target = `out[${JSON.stringify(field.name)}]`;
  if (!field.dropWhenZero) return `case ${tag}: ${target} = ${read}; break;`;
  return `case ${tag}: { const v = ${read}; if (v !== '' && v !== 0 && v !== false && v !== null) ${target} = v; } break;`;
}

/** Compiles the field loop of `spec`. */
export function compileFieldsDecoder(spec: MessageSpec, h: FieldsDecoderHelpers): FieldsDecoder {
  const fields: FieldSpec[] = [];
  const cases: string[] = [];
  spec.byNumber.forEach((field, number) => {
    if (field === undefined) return;
    const code = fieldCase(field, fields.length, number);
    fields.push(field);
    if (code !== '') cases.push(code);
  });
  const source = `"use strict";
return function decode_${spec.name.replace(/[^A-Za-z0-9]/g, '_')}(r, end, out) {
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      ${cases.join('\n      ')}
      default: h.field(r, end, tag, out);
    }
    if (r.pos > end) throw r.truncated();
  }
};`;
  // The source is built from the generated schema only (field names as JSON string literals).
  return new Function('h', 'F', source)(h, fields) as FieldsDecoder;
}
