// The protobuf encoder's entry point: an object → the body client-go sends for it
// (`Content-Type: application/vnd.kubernetes.protobuf`).

import { encodeFields, TYPE_META_KEYS } from './encode-message.js';
import { PROTOBUF_MAGIC } from './envelope.js';
import { ProtobufEncodeError } from './protobuf-encode-error.js';
import { rootSpec } from './schema.js';
import { Wire } from './wire-reader.js';
import { WireWriter } from './wire-writer.js';

export { ProtobufEncodeError } from './protobuf-encode-error.js';

/**
 * `object` (as JSON would send it) of `kind` in `apiVersion` → the `k8s\0` magic and a
 * runtime.Unknown holding its protobuf message, as client-go writes a create or update
 * body. Absent and null fields are not written (Go reads them as zero values either way);
 * `apiVersion` and `kind` come from the arguments. Throws ProtobufEncodeError for a kind
 * without a schema, a key that is not a field of its Go type (which protobuf would drop
 * silently), or a value of the wrong type.
 */
export function encodeProtobuf(object: unknown, apiVersion: string, kind: string): Uint8Array {
  const spec = rootSpec(apiVersion, kind);
  if (spec === undefined) {
    throw new ProtobufEncodeError(
      `protobuf: no schema for apiVersion ${JSON.stringify(apiVersion)} kind ${JSON.stringify(kind)}`,
    );
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw new ProtobufEncodeError(`protobuf: a ${kind} must be an object`);
  }
  const raw = new WireWriter();
  encodeFields(raw, spec, object as Record<string, unknown>, '', TYPE_META_KEYS);
  const typeMeta = new WireWriter();
  typeMeta.tag(1, Wire.Bytes);
  typeMeta.string(apiVersion);
  typeMeta.tag(2, Wire.Bytes);
  typeMeta.string(kind);
  const body = new WireWriter();
  body.tag(1, Wire.Bytes);
  body.bytes(typeMeta.finish());
  body.tag(2, Wire.Bytes);
  body.bytes(raw.finish());
  body.tag(3, Wire.Bytes);
  body.string('');
  body.tag(4, Wire.Bytes);
  body.string('');
  const message = body.finish();
  const out = new Uint8Array(PROTOBUF_MAGIC.length + message.length);
  out.set(PROTOBUF_MAGIC);
  out.set(message, PROTOBUF_MAGIC.length);
  return out;
}
