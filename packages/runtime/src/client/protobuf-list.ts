//! A LIST answered in protobuf: decoded whole, then shaped as the JSON list parser shapes its items.

import type { ListBodyParserOptions, ParsedList } from '../internal/list-body-parser.js';
import { decodeAnswer } from './content-type.js';

interface DecodedItem {
  kind?: string;
  apiVersion?: string;
}

/**
 * `body` (a protobuf LIST answer) as a list, its items treated as {@link ListBodyParserOptions}
 * say: without `metadata.managedFields` when `dropManagedFields` (left out while decoding),
 * given the list's `kind` (without `List`) and `apiVersion` when `typeMeta` and they carry
 * none.
 */
export function decodeProtobufList(body: Buffer, options: ListBodyParserOptions = {}): ParsedList {
  const list = decodeAnswer(body, {
    dropManagedFields: options.dropManagedFields === true,
  }) as ParsedList & { kind?: string; apiVersion?: string };
  const kind =
    options.typeMeta === true && list.kind?.endsWith('List') && list.kind.length > 4
      ? list.kind.slice(0, -4)
      : undefined;
  if (kind === undefined) return list;
  const items = list.items as DecodedItem[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as DecodedItem;
    // A new object, kind and apiVersion first, as a watch event's object has them.
    if (item.kind === undefined && item.apiVersion === undefined)
      items[i] = { kind, apiVersion: list.apiVersion, ...item };
  }
  return list;
}

/** The first bytes of every protobuf answer: `k8s` and a zero byte. */
const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
/** The tag of a length-delimited field `n` (wire type 2). */
const bytesField = (n: number): number => (n << 3) | 2;

/**
 * The continue token of a protobuf LIST answer, read from its first bytes (`head`): the
 * envelope's `raw` (field 2) opens with the list's `metadata` (field 1, a ListMeta) whose
 * `continue` is field 3. Undefined when absent, empty, or not within `head`.
 */
export function peekProtobufContinueToken(head: Buffer): string | undefined {
  if (head.length < PROTOBUF_MAGIC.length || !head.subarray(0, 4).equals(PROTOBUF_MAGIC))
    return undefined;
  const reader = { at: PROTOBUF_MAGIC.length };
  // The envelope: skip to `raw`.
  let field = readField(head, reader);
  while (field !== undefined && field.tag !== bytesField(2)) field = readField(head, reader);
  if (field === undefined) return undefined;
  reader.at = field.start;
  const metadata = readField(head, reader);
  if (metadata === undefined || metadata.tag !== bytesField(1)) return undefined;
  reader.at = metadata.start;
  while (reader.at < metadata.end) {
    const entry = readField(head, reader);
    if (entry === undefined) return undefined;
    if (entry.tag === bytesField(3)) {
      if (entry.end > head.length) return undefined;
      const token = head.toString('utf8', entry.start, entry.end);
      return token === '' ? undefined : token;
    }
  }
  return undefined;
}

/**
 * The field at `reader.at`: its tag and, for a length-delimited one, where its bytes start
 * and end (`reader.at` moves past them; its end may lie beyond `bytes`). Undefined when
 * `bytes` ends first or the wire type is not one a ListMeta or envelope uses.
 */
function readField(
  bytes: Buffer,
  reader: { at: number },
): { tag: number; start: number; end: number } | undefined {
  const tag = readVarint(bytes, reader);
  if (tag === undefined) return undefined;
  const wireType = tag & 7;
  if (wireType === 0) {
    const value = readVarint(bytes, reader);
    return value === undefined ? undefined : { tag, start: reader.at, end: reader.at };
  }
  if (wireType !== 2) return undefined;
  const length = readVarint(bytes, reader);
  if (length === undefined) return undefined;
  const start = reader.at;
  reader.at = start + length;
  return { tag, start, end: start + length };
}

function readVarint(bytes: Buffer, reader: { at: number }): number | undefined {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const byte = bytes[reader.at++];
    if (byte === undefined) return undefined;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
  }
  return undefined;
}
