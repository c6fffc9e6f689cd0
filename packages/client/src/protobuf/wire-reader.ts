// A cursor over protobuf bytes: varints, lengths, strings, with bounds checks.

import { ProtobufDecodeError } from './protobuf-decode-error.js';

/** Protobuf wire types. */
export const Wire = { Varint: 0, Fixed64: 1, Bytes: 2, Fixed32: 5 } as const;

const TWO_32 = 4294967296;
/** ASCII strings up to this many bytes are looked up in {@link SHORT_STRINGS}. */
const SHORT_STRING = 40;

/** The last short string read per hash slot (a power of two in size), shared by every decode. */
const SHORT_STRINGS: string[] = new Array<string>(4096).fill('');

interface NodeSlices {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
  base64Slice(start: number, end: number): string;
  readDoubleLE(offset: number): number;
}

/**
 * Reads one buffer front to back. `pos` is public so the decoder's loops can read it
 * without a call; every read that could pass the end of its message is checked.
 */
export class WireReader {
  pos = 0;
  readonly buf: Uint8Array;
  private readonly node: NodeSlices;

  constructor(buf: Uint8Array) {
    this.buf = buf;
    // A watch frame or a response body is a Buffer already: no second view per message.
    this.node = (Buffer.isBuffer(buf)
      ? buf
      : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)) as unknown as NodeSlices;
  }

  /** A varint of at most 32 significant bits (tags, lengths, int32), as an unsigned number. */
  uint32(): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 0x80) return b;
    let v = b & 0x7f;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 7;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 14;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 21;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v = (v | ((b & 0x0f) << 28)) >>> 0;
    // A negative int32 is sign-extended to ten bytes: skip the high ones.
    while (b >= 0x80) {
      if (this.pos >= buf.length) throw this.truncated();
      b = buf[this.pos++]!;
    }
    return v;
  }

  /** A varint as a signed 64-bit integer, rounded to the nearest double as JSON.parse would. */
  int64(unsigned: boolean): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 0x80) return b;
    let lo = b & 0x7f;
    let shift = 7;
    for (; shift < 28; shift += 7) {
      b = buf[this.pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) return lo;
    }
    b = buf[this.pos++]!;
    lo = (lo | ((b & 0x0f) << 28)) >>> 0;
    let hi = (b & 0x7f) >>> 4;
    for (shift = 3; b >= 0x80 && shift < 32; shift += 7) {
      if (this.pos >= buf.length) throw this.truncated();
      b = buf[this.pos++]!;
      hi = (hi | ((b & 0x7f) << shift)) >>> 0;
    }
    return combine64(lo, hi, unsigned);
  }

  /** A varint as a BigInt (signed 64-bit), for values formatted exactly (durations). */
  bigInt64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw this.truncated();
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7n;
    }
    return BigInt.asIntN(64, result);
  }

  /** A little-endian double. */
  double(): number {
    const v = this.node.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A length prefix; returns the end offset of the value, checked against `end`. */
  end(end: number): number {
    const len = this.uint32();
    const valueEnd = this.pos + len;
    if (valueEnd > end) throw this.truncated();
    return valueEnd;
  }

  /**
   * The UTF-8 string from `pos` to `end`. Short ASCII strings come from {@link SHORT_STRINGS}
   * when the same bytes were read before: names, namespaces, label keys and values, field
   * managers repeat across the objects of a list, and one copy is cheaper to make and hold.
   */
  string(end: number): string {
    const start = this.pos;
    this.pos = end;
    const length = end - start;
    if (length > SHORT_STRING || length === 0) {
      return length === 0 ? '' : this.node.utf8Slice(start, end);
    }
    const buf = this.buf;
    let hash = length;
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (c >= 0x80) return this.node.utf8Slice(start, end);
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    const slot = (hash ^ (hash >>> 15)) & (SHORT_STRINGS.length - 1);
    const known = SHORT_STRINGS[slot]!;
    if (known.length === length) {
      let i = 0;
      while (i < length && known.charCodeAt(i) === buf[start + i]) i++;
      if (i === length) return known;
    }
    const text = this.node.latin1Slice(start, end);
    SHORT_STRINGS[slot] = text;
    return text;
  }

  /** The UTF-8 text of bytes `start` to `end` (the cursor does not move). */
  utf8(start: number, end: number): string {
    return this.node.utf8Slice(start, end);
  }

  /** The bytes from `pos` to `end`, base64-encoded (as encoding/json writes []byte). */
  base64(end: number): string {
    const s = this.node.base64Slice(this.pos, end);
    this.pos = end;
    return s;
  }

  /** Skips one value of wire type `wire`. */
  skip(wire: number, end: number): void {
    if (wire === Wire.Varint) this.int64(true);
    else if (wire === Wire.Fixed64) this.pos += 8;
    else if (wire === Wire.Bytes) this.pos = this.end(end);
    else if (wire === Wire.Fixed32) this.pos += 4;
    else
      throw new ProtobufDecodeError(`protobuf: unsupported wire type ${wire} at byte ${this.pos}`);
    if (this.pos > end) throw this.truncated();
  }

  /** The error for a message that ends before its last value does. */
  truncated(): ProtobufDecodeError {
    return new ProtobufDecodeError(
      `protobuf: truncated message (read to byte ${this.pos} of ${this.buf.length})`,
    );
  }
}

/** The number a 64-bit two's-complement integer stands for, correctly rounded. */
function combine64(lo: number, hi: number, unsigned: boolean): number {
  if (hi <= 0x1fffff) return hi * TWO_32 + lo;
  if (!unsigned && hi >= 0xffe00000) {
    // Negative and within 2^53: -(~value + 1).
    return -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
  }
  const big = (BigInt(hi) << 32n) | BigInt(lo);
  return Number(unsigned ? big : BigInt.asIntN(64, big));
}
