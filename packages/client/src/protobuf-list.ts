//! A LIST answered in protobuf: decoded whole, then shaped as the JSON list parser shapes its items.

import { decodeAnswer } from './content-type.js';
import type { ListBodyParserOptions, ParsedList } from './internal/list-body-parser.js';
import { PROTOBUF_MAGIC, startsWithMagic } from './protobuf/envelope.js';
import { ProtobufDecodeError } from './protobuf/protobuf-decode-error.js';
import { Wire, WireReader } from './protobuf/wire-reader.js';

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

/** The tag of field `n`, length-delimited. */
const bytesField = (n: number): number => (n << 3) | Wire.Bytes;
const RAW_FIELD = bytesField(2);
const LIST_METADATA_FIELD = bytesField(1);
const CONTINUE_FIELD = bytesField(3);

/**
 * The continue token of a protobuf LIST answer, read from its first bytes (`head`): the
 * envelope's `raw` (field 2) opens with the list's `metadata` (field 1, a ListMeta) whose
 * `continue` is field 3. Undefined when absent, empty, or not within `head`.
 */
export function peekProtobufContinueToken(head: Buffer): string | undefined {
  if (!startsWithMagic(head, 0, head.length)) return undefined;
  const r = new WireReader(head);
  r.pos = PROTOBUF_MAGIC.length;
  try {
    // The envelope's fields up to `raw`, whose bytes may reach beyond the head.
    let tag = r.uint32();
    while (tag !== RAW_FIELD) {
      r.skip(tag & 7, head.length);
      if (r.pos >= head.length) return undefined;
      tag = r.uint32();
    }
    r.uint32();
    if (r.uint32() !== LIST_METADATA_FIELD) return undefined;
    const metadataEnd = r.end(head.length);
    while (r.pos < metadataEnd) {
      tag = r.uint32();
      if (tag === CONTINUE_FIELD) return r.string(r.end(metadataEnd)) || undefined;
      r.skip(tag & 7, metadataEnd);
    }
    return undefined;
  } catch (error) {
    // The head ends before the token does.
    if (error instanceof ProtobufDecodeError) return undefined;
    throw error;
  }
}
