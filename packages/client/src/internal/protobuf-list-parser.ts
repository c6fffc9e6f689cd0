//! Decodes a protobuf LIST answer as it arrives: each item as soon as its last byte is in.

import {
  applyDefaults,
  decodeFields,
  typedObject,
  withoutManagedFields,
} from '../protobuf/decode-message.js';
import { PROTOBUF_MAGIC } from '../protobuf/envelope.js';
import { ProtobufDecodeError } from '../protobuf/protobuf-decode-error.js';
import { childSpec, hasTypeMeta, Kind, type MessageSpec, rootSpec } from '../protobuf/schema.js';
import { Wire, WireReader } from '../protobuf/wire-reader.js';
import { decodeProtobufList } from '../protobuf-list.js';
import type { ListBodyParserOptions, ParsedList } from './list-body-parser.js';

type JsonObject = Record<string, unknown>;

/** runtime.Unknown's fields: typeMeta (apiVersion, kind), raw (the list), contentEncoding. */
const TYPE_META = 1;
const RAW = 2;
const CONTENT_ENCODING = 3;
/** A field's value as it lies in the bytes: where it starts and ends (-1: not all in yet). */
interface Extent {
  tag: number;
  start: number;
  end: number;
}

/**
 * Decodes a protobuf LIST body (`k8s\0`, runtime.Unknown { typeMeta, raw = the list }) while
 * its chunks arrive: each item of the list's `items` is decoded as soon as its last byte is
 * in, so decoding overlaps the transfer, and the body is never held whole (only the item
 * being received). The result is the one {@link decodeProtobufList} gives for the whole body
 * (the same objects, keys in the same order). A body it cannot read this way (no schema for
 * its kind, no `items`, a metadata-only list) is kept and decoded whole at the end.
 *
 * Feed chunks in order with {@link push}, then call {@link end}. Malformed bytes throw
 * ProtobufDecodeError from `push` or `end`.
 */
export class ProtobufListParser {
  readonly #options: ListBodyParserOptions;
  /** The bytes received and not consumed yet (a field not all in). */
  #pending: Buffer = Buffer.alloc(0);
  /** Every chunk, while it is not known whether the body can be decoded as it arrives. */
  #head: Buffer[] | undefined = [];
  /** Set when the body is decoded whole at the end: its chunks. */
  #whole: Buffer[] | undefined;
  #magicRead = false;
  #apiVersion = '';
  #kind = '';
  #listSpec: MessageSpec | undefined;
  /** The wire number of the list's `items`, and the message of an item. */
  #itemsNumber = -1;
  #itemSpec: MessageSpec | undefined;
  /** The kind given to items (the list's without `List`), when asked for. */
  #itemKind: string | undefined;
  /** Inside the list (`raw`): its bytes not consumed yet. */
  #listLeft = -1;
  #listSeen = false;
  /** The list's fields but `items` (its `metadata`), as on the wire, decoded at the end. */
  #rest: Buffer[] = [];
  #items: unknown[] = [];
  #itemsSeen = false;

  constructor(options: ListBodyParserOptions = {}) {
    this.#options = options;
  }

  /** How many items were decoded so far. */
  get itemCount(): number {
    return this.#items.length;
  }

  /** Takes the next chunk, decoding each item it completes. */
  push(chunk: Buffer): void {
    if (this.#whole !== undefined) {
      this.#whole.push(chunk);
      return;
    }
    this.#head?.push(chunk);
    let rest = chunk;
    // A field cut by the previous chunk is completed with just the bytes it lacks: the rest
    // of the chunk is read where it lies, not copied.
    const lacking = this.#lacking();
    if (lacking > 0 && lacking <= chunk.length) {
      this.#pending = Buffer.concat([this.#pending, chunk.subarray(0, lacking)]);
      this.#drainAll();
      rest = chunk.subarray(lacking);
    }
    this.#pending = this.#pending.length === 0 ? rest : Buffer.concat([this.#pending, rest]);
    this.#drainAll();
  }

  /** The bytes the field at the head of {@link #pending} still lacks; 0 when not known. */
  #lacking(): number {
    const pending = this.#pending;
    if (pending.length === 0 || !this.#magicRead) return 0;
    const r = new WireReader(pending);
    const field = extent(r, 0);
    if (field === undefined) return 0;
    // Of the envelope's `raw`, only its tag and length are needed: its bytes are the list's fields.
    const raw = this.#listLeft <= 0 && field.tag === ((RAW << 3) | Wire.Bytes);
    return (raw ? field.start : field.end) - pending.length;
  }

  #drainAll(): void {
    if (this.#whole !== undefined) return;
    if (this.#options.dropManagedFields === true) withoutManagedFields(() => this.#drain());
    else this.#drain();
  }

  /** The list, once every chunk was pushed. */
  end(): ParsedList {
    const whole = this.#whole ?? (this.#listSeen ? undefined : this.#head);
    // Whole, or never got as far as the list: the whole decoder reads it (or says what is wrong).
    if (whole !== undefined) return decodeProtobufList(Buffer.concat(whole), this.#options);
    if (this.#listLeft > 0 || this.#pending.length > 0) {
      throw new ProtobufDecodeError(
        `protobuf: truncated message (${this.#listLeft > 0 ? this.#listLeft : this.#pending.length} bytes missing or left over at the end of the list)`,
      );
    }
    const spec = this.#listSpec as MessageSpec;
    const out: JsonObject = hasTypeMeta(spec) ? typedObject(this.#kind, this.#apiVersion) : {};
    const rest = Buffer.concat(this.#rest);
    decodeFields(new WireReader(rest), rest.length, spec, out);
    // Handed over: a parser outlives its response (see ListBodyParser.end).
    if (this.#itemsSeen) out.items = this.#items;
    this.#items = [];
    this.#rest = [];
    applyDefaults(out, spec);
    if (out.items === null && this.#kind.endsWith('List')) out.items = [];
    return out as ParsedList;
  }

  /** Consumes every whole field of {@link #pending}. */
  #drain(): void {
    const buf = this.#pending;
    const r = new WireReader(buf);
    let pos = 0;
    if (!this.#magicRead) {
      if (buf.length < PROTOBUF_MAGIC.length) return;
      // A wrong magic: the whole decoder says so at the end.
      if (!PROTOBUF_MAGIC.every((byte, i) => buf[i] === byte)) {
        this.#decodeWhole();
        return;
      }
      this.#magicRead = true;
      pos = PROTOBUF_MAGIC.length;
    }
    while (pos < buf.length) {
      if (this.#listLeft > 0) {
        const next = this.#listField(r, pos);
        if (next === -1) break;
        this.#listLeft -= next - pos;
        pos = next;
        continue;
      }
      const next = this.#envelopeField(r, pos);
      if (this.#whole !== undefined) return;
      if (next === -1) break;
      pos = next;
    }
    this.#pending = buf.subarray(pos);
  }

  /** One field of the envelope from `pos`; returns where the next starts, -1 when not all in. */
  #envelopeField(r: WireReader, pos: number): number {
    const field = extent(r, pos);
    if (field === undefined) return -1;
    // Of `raw` only its tag and length: its bytes are the list's fields.
    const raw = field.tag === ((RAW << 3) | Wire.Bytes);
    if (!raw && field.end > r.buf.length) return -1;
    if (field.tag === ((TYPE_META << 3) | Wire.Bytes)) {
      r.pos = field.start;
      while (r.pos < field.end) {
        const inner = r.uint32();
        if (inner === ((1 << 3) | Wire.Bytes)) this.#apiVersion = r.string(r.end(field.end));
        else if (inner === ((2 << 3) | Wire.Bytes)) this.#kind = r.string(r.end(field.end));
        else r.skip(inner & 7, field.end);
      }
    } else if (raw) {
      if (!this.#startList()) {
        this.#decodeWhole();
        return -1;
      }
      this.#listLeft = field.end - field.start;
      return field.start;
    } else if (field.tag === ((CONTENT_ENCODING << 3) | Wire.Bytes)) {
      r.pos = field.start;
      const encoding = r.string(field.end);
      if (encoding !== '')
        throw new ProtobufDecodeError(`protobuf: unsupported contentEncoding ${encoding}`);
    }
    return field.end;
  }

  /** Whether the list can be decoded as it arrives (a known list kind with `items`). */
  #startList(): boolean {
    if (this.#listSeen) throw new ProtobufDecodeError('protobuf: the envelope holds two objects');
    if (this.#kind === 'PartialObjectMetadataList') return false;
    const spec = rootSpec(this.#apiVersion, this.#kind);
    const items = spec?.byNumber.find((f) => f?.name === 'items');
    if (spec === undefined || items === undefined) return false;
    if (!items.repeated || items.map || items.kind !== Kind.Message) return false;
    this.#listSpec = spec;
    this.#itemsNumber = spec.byNumber.indexOf(items);
    this.#itemSpec = childSpec(items);
    const kind = this.#kind;
    if (this.#options.typeMeta === true && kind.endsWith('List') && kind.length > 4)
      this.#itemKind = kind.slice(0, -4);
    this.#listSeen = true;
    this.#head = undefined;
    return true;
  }

  /** One field of the list from `pos`: an item is decoded, the rest kept for the end. */
  #listField(r: WireReader, pos: number): number {
    const field = extent(r, pos);
    if (field === undefined || field.end > r.buf.length) return -1;
    if (field.end - pos > this.#listLeft) throw r.truncated();
    if (field.tag >>> 3 !== this.#itemsNumber) {
      this.#rest.push(Buffer.from(r.buf.subarray(pos, field.end)));
      return field.end;
    }
    if ((field.tag & 7) !== Wire.Bytes) {
      throw new ProtobufDecodeError(
        `protobuf: ${this.#listSpec?.name}.items has wire type ${field.tag & 7}, expected ${Wire.Bytes}`,
      );
    }
    this.#items.push(this.#decodeItem(r, field.start, field.end));
    this.#itemsSeen = true;
    return field.end;
  }

  /** One item, given the list's kind (without `List`) and apiVersion first when asked for. */
  #decodeItem(r: WireReader, start: number, end: number): unknown {
    const spec = this.#itemSpec as MessageSpec;
    const kind = this.#itemKind;
    const item: JsonObject = kind === undefined ? {} : typedObject(kind, this.#apiVersion);
    r.pos = start;
    decodeFields(r, end, spec, item);
    applyDefaults(item, spec);
    return item;
  }

  /** From now on, the body is kept and decoded whole at the end. */
  #decodeWhole(): void {
    this.#whole = this.#head ?? [];
    this.#head = undefined;
    this.#pending = Buffer.alloc(0);
  }
}

/**
 * The field at `pos`: its tag and where its value starts and ends (`end` may lie beyond the
 * bytes in); undefined when its tag or length is not all in (or, for a varint, its value).
 */
function extent(r: WireReader, pos: number): Extent | undefined {
  const buf = r.buf;
  if (varintEnd(buf, pos) === -1) return undefined;
  r.pos = pos;
  const tag = r.uint32();
  const start = r.pos;
  let end: number;
  switch (tag & 7) {
    case Wire.Varint:
      end = varintEnd(buf, start);
      break;
    case Wire.Fixed64:
      end = start + 8;
      break;
    case Wire.Fixed32:
      end = start + 4;
      break;
    case Wire.Bytes: {
      if (varintEnd(buf, start) === -1) return undefined;
      const length = r.uint32();
      return { tag, start: r.pos, end: r.pos + length };
    }
    default:
      throw new ProtobufDecodeError(`protobuf: unsupported wire type ${tag & 7} at byte ${pos}`);
  }
  return end === -1 ? undefined : { tag, start, end };
}

/** Where the varint at `pos` ends; -1 when its bytes are not all in. */
function varintEnd(buf: Uint8Array, pos: number): number {
  for (let i = pos; i < buf.length && i < pos + 10; i++) if (buf[i]! < 0x80) return i + 1;
  if (buf.length >= pos + 10)
    throw new ProtobufDecodeError(`protobuf: a varint at byte ${pos} is too long`);
  return -1;
}
