//! Which wire format a request asks for (protobuf for built-in types, as client-go's typed clients), and reading the answer in the format it came in.

import type { IncomingHttpHeaders } from 'node:http';
import { type DecodeOptions, decodeProtobuf, isProtobufGroupVersion } from './protobuf/decode.js';

/** JSON: what every resource speaks. */
export const CONTENT_TYPE_JSON = 'application/json';
/** Kubernetes' protobuf: what built-in types speak too (not custom resources). */
export const CONTENT_TYPE_PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** The wire format a client prefers for built-in types (client-go's `rest.Config.ContentType`). */
export type ContentType = typeof CONTENT_TYPE_JSON | typeof CONTENT_TYPE_PROTOBUF;

/** Protobuf, or JSON where the server has no protobuf for the answer: client-go's typed clients' `Accept`. */
const ACCEPT_PROTOBUF = `${CONTENT_TYPE_PROTOBUF},${CONTENT_TYPE_JSON}`;

/**
 * The `Accept` header of a request to `path` that asked for `accept`: a plain JSON request
 * on a built-in type's resource (or its `status`) takes protobuf first when `preferred` is
 * protobuf; anything else (custom resources, discovery, other subresources, metadata-only
 * and table requests) keeps `accept`.
 */
export function negotiatedAccept(path: string, accept: string, preferred: ContentType): string {
  if (preferred !== CONTENT_TYPE_PROTOBUF || accept !== CONTENT_TYPE_JSON) return accept;
  const apiVersion = builtInResourceGroupVersion(path);
  return apiVersion !== undefined && isProtobufGroupVersion(apiVersion) ? ACCEPT_PROTOBUF : accept;
}

/** Whether an answer's `Content-Type` says protobuf (a whole object, or a watch stream's frames). */
export function isProtobuf(headers: IncomingHttpHeaders): boolean {
  return headers['content-type']?.startsWith(CONTENT_TYPE_PROTOBUF) === true;
}

/** The answer `body` as an object, from protobuf or JSON as its `headers` say; undefined when empty. */
export function decodeBody(body: Buffer, headers: IncomingHttpHeaders): unknown {
  if (body.length === 0) return undefined;
  return isProtobuf(headers) ? decodeAnswer(body) : JSON.parse(body.toString('utf8'));
}

/**
 * A protobuf answer as its JSON would be (`options` as the decoder's). The decoder gives what Go's JSON encoder writes
 * for the decoded object, where a list without items has `items: null`; the apiserver's
 * own JSON of an empty LIST has `[]` (its list holds an empty slice, which protobuf cannot
 * tell from none).
 */
export function decodeAnswer(body: Buffer, options: DecodeOptions = {}): unknown {
  const object = decodeProtobuf(body, options) as { kind?: string; items?: unknown } | null;
  if (object?.items === null && object.kind?.endsWith('List') === true) object.items = [];
  return object;
}

/**
 * The `apiVersion` of a path that names a resource of a group-version, its objects or their
 * `status` (`/api/v1/namespaces/a/pods/b/status` → `v1`, `/apis/apps/v1/deployments` →
 * `apps/v1`); undefined for discovery paths and other subresources, whose answers are other
 * kinds.
 */
export function builtInResourceGroupVersion(path: string): string | undefined {
  const end = path.indexOf('?');
  const segments = (end === -1 ? path : path.slice(0, end)).split('/');
  // ['', 'api', 'v1', ...rest] or ['', 'apis', group, version, ...rest]
  let apiVersion: string;
  let rest: string[];
  if (segments[1] === 'api' && segments.length > 3) {
    apiVersion = segments[2] as string;
    rest = segments.slice(3);
  } else if (segments[1] === 'apis' && segments.length > 4) {
    apiVersion = `${segments[2]}/${segments[3]}`;
    rest = segments.slice(4);
  } else {
    return undefined;
  }
  // namespaces/<ns>/<resource>/… is a namespaced resource; namespaces, namespaces/<ns> and
  // namespaces/<ns>/status are the Namespace itself.
  if (rest[0] === 'namespaces' && rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize')
    rest = rest.slice(2);
  // <resource>, <resource>/<name>, <resource>/<name>/status
  if (rest.length <= 2 || (rest.length === 3 && rest[2] === 'status')) return apiVersion;
  return undefined;
}
