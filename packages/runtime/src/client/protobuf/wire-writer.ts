// A growing buffer of protobuf: tags, varints, fixed64, length-delimited bytes.

const TWO_32 = 4294967296;

/** Appends protobuf values to a buffer that grows as needed. */
export class WireWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + extra));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  /** A field's tag: its number and wire type. */
  tag(field: number, wire: number): void {
    this.uint32((field << 3) | wire);
  }

  /** A varint of an unsigned value below 2^32. */
  uint32(value: number): void {
    this.reserve(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.length++] = v;
  }

  /** A varint of a signed integer (negative ones as ten-byte two's complement, as Go writes them). */
  int64(value: number): void {
    if (value >= 0 && value < TWO_32) {
      this.uint32(value);
      return;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    this.reserve(10);
    while (v >= 0x80n) {
      this.buf[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.length++] = Number(v);
  }

  /** A little-endian double. */
  double(value: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
  }

  /** Length-prefixed bytes. */
  bytes(value: Uint8Array): void {
    this.uint32(value.length);
    this.reserve(value.length);
    this.buf.set(value, this.length);
    this.length += value.length;
  }

  /** A length-prefixed UTF-8 string. */
  string(value: string): void {
    this.bytes(Buffer.from(value, 'utf8'));
  }

  /** The bytes written so far. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
