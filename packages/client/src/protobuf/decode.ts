// The protobuf decoder's entry points: a whole answer, one watch frame, and which
// apiVersions it can decode.
//
// What the API server sends (k8s.io/apimachinery runtime/serializer/protobuf, apiserver
// endpoints/handlers/watch.go):
// - A GET or LIST answer (`Content-Type: application/vnd.kubernetes.protobuf`) is the four
//   bytes `k8s\0`, then a runtime.Unknown message: typeMeta (apiVersion, kind), raw (the
//   object's own message), contentEncoding and contentType (empty).
// - A watch (`application/vnd.kubernetes.protobuf;stream=watch`) is a series of frames, each
//   a 4-byte big-endian length and then that many bytes: a metav1.WatchEvent message written
//   WITHOUT the magic and envelope (the stream serializer is the raw one): type = 1,
//   object = 2 (a runtime.RawExtension whose raw = 1 holds the object enveloped as above,
//   magic included, as a GET answer would be).

import { decodeEnvelope, decodeMessage, withoutManagedFields } from './decode-message.js';
import { ProtobufDecodeError } from './protobuf-decode-error.js';
import { isSchemaGroupVersion, messageSpec } from './schema.js';
import { WireReader } from './wire-reader.js';

export { ProtobufDecodeError } from './protobuf-decode-error.js';

/** Options of a decode. */
export interface DecodeOptions {
  /**
   * Leave `metadata.managedFields` out of every object (its bytes skipped, not decoded), for
   * a caller that drops them anyway. Default `false`.
   */
  dropManagedFields?: boolean;
}

/** Whether every kind of `apiVersion` ("v1", "apps/v1", "resource.k8s.io/v1", …) can be decoded from protobuf. */
export function isProtobufGroupVersion(apiVersion: string): boolean {
  return isSchemaGroupVersion(apiVersion);
}

/**
 * A whole protobuf answer (the `k8s\0` magic + runtime.Unknown envelope) → the object
 * exactly as JSON.parse of the JSON answer gives it (apiVersion/kind from the envelope
 * where the JSON has them: top-level objects and lists, not list items). Throws
 * ProtobufDecodeError naming what is wrong (bad magic, unknown apiVersion/kind,
 * truncated, wire type mismatch).
 */
export function decodeProtobuf(body: Uint8Array, options: DecodeOptions = {}): unknown {
  return options.dropManagedFields === true
    ? withoutManagedFields(() => decodeEnvelope(body))
    : decodeEnvelope(body);
}

/**
 * One frame of a protobuf watch stream (the bytes after the 4-byte big-endian length
 * prefix) → the watch event as JSON.parse of a JSON watch line gives it ({ type, object }).
 */
export function decodeProtobufWatchEvent(
  frame: Uint8Array,
  options: DecodeOptions = {},
): { type: string; object: unknown } {
  return options.dropManagedFields === true
    ? withoutManagedFields(() => decodeWatchEvent(frame))
    : decodeWatchEvent(frame);
}

function decodeWatchEvent(frame: Uint8Array): { type: string; object: unknown } {
  const spec = messageSpec('meta/v1.WatchEvent');
  if (spec === undefined)
    throw new ProtobufDecodeError('protobuf: no schema for meta/v1.WatchEvent');
  const r = new WireReader(frame);
  const event = decodeMessage(r, frame.length, spec) as { type: string; object: unknown };
  return { type: event.type, object: event.object };
}
