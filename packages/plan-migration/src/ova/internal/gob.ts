//! A Go `encoding/gob` encoder for the few shapes the upstream ids hash: strings, ints, bools, slices, structs.

/** A gob type: a basic one, a slice, or a named struct. */
export type GobType = 'string' | 'int' | 'bool' | GobSlice | GobStruct;
/** `[]elem`; `name` is Go's `reflect.Type.String()`, e.g. `[]ovf.NIC`. */
export interface GobSlice {
  kind: 'slice';
  name: string;
  elem: GobType;
}
/** A struct; `fields` lists the exported fields in declaration order. */
export interface GobStruct {
  kind: 'struct';
  name: string;
  fields: ReadonlyArray<readonly [string, GobType]>;
}
/** A value of a gob type: string, bigint or number, boolean, array, or object keyed by field. */
export type GobValue =
  | string
  | bigint
  | number
  | boolean
  | GobValue[]
  | { [field: string]: GobValue };

const BUILTIN_IDS = { bool: 1, int: 2, string: 6 } as const;
/** Go's `firstUserId`: `setTypeId` increments before it assigns, so the first user type gets 65. */
const FIRST_USER_ID = 64;
// wireType's field numbers (ArrayT 0, SliceT 1, StructT 2).
const WIRE_SLICE = 1;
const WIRE_STRUCT = 2;

/**
 * Go's process-global type registry (`types`, `nextId`), replayed: ids are handed out in the
 * order Go's `newTypeObject` does (a struct takes its id before its fields, a slice after its
 * element), so the bytes match those of a Go process that registered the same types in the same
 * order.
 */
export class GobRegistry {
  readonly #ids = new Map<GobType, number>();
  #next = FIRST_USER_ID;

  /** Registers `type` (and what it contains), as Go does the first time it encodes one. */
  register(type: GobType): number {
    if (typeof type === 'string') return BUILTIN_IDS[type];
    const known = this.#ids.get(type);
    if (known !== undefined) return known;
    if (type.kind === 'struct') {
      this.#ids.set(type, ++this.#next);
      for (const [, field] of type.fields) this.register(field);
    } else {
      this.register(type.elem);
      this.#ids.set(type, ++this.#next);
    }
    return this.#ids.get(type) as number;
  }

  /** The bytes a fresh `gob.NewEncoder(&buf).Encode(value)` writes for a value of `type`. */
  encode(type: GobType, value: GobValue): Uint8Array {
    const out: number[] = [];
    const sent = new Set<GobType>();
    this.register(type);
    this.#sendType(type, sent, out);
    const body: number[] = [];
    encodeInt(body, BigInt(this.register(type)));
    if (typeof type !== 'string' && type.kind === 'struct') encodeStruct(body, type, value);
    else {
      body.push(0); // a top-level non-struct value is a singleton: field delta 0
      encodeValue(body, type, value);
    }
    message(out, body);
    return Uint8Array.from(out);
  }

  // Go's Encoder.sendType: the type's wireType message, then its fields' types, depth first.
  #sendType(type: GobType, sent: Set<GobType>, out: number[]): void {
    if (typeof type === 'string' || sent.has(type)) return;
    sent.add(type);
    const body: number[] = [];
    encodeInt(body, BigInt(-this.register(type)));
    // wireType{SliceT|StructT: {CommonType{Name, Id}, Elem|Field}}
    encodeUint(body, BigInt((type.kind === 'slice' ? WIRE_SLICE : WIRE_STRUCT) + 1));
    body.push(1); // CommonType, field 0
    encodeCommon(body, type.name, this.register(type));
    if (type.kind === 'slice') {
      body.push(1); // Elem, field 1
      encodeInt(body, BigInt(this.register(type.elem)));
    } else if (type.fields.length > 0) {
      body.push(1); // Field, field 1
      encodeUint(body, BigInt(type.fields.length));
      for (const [name, field] of type.fields) encodeCommon(body, name, this.register(field));
    }
    body.push(0, 0); // end of the inner type, end of wireType
    message(out, body);
    if (type.kind === 'slice') this.#sendType(type.elem, sent, out);
    else for (const [, field] of type.fields) this.#sendType(field, sent, out);
  }
}

/** `{Name string; Id typeId}` as a struct: both fields present (never zero here). */
function encodeCommon(out: number[], name: string, id: number): void {
  out.push(1);
  encodeString(out, name);
  out.push(1);
  encodeInt(out, BigInt(id));
  out.push(0);
}

function encodeStruct(out: number[], type: GobStruct, value: GobValue): void {
  const object = value as { [field: string]: GobValue };
  let last = -1;
  type.fields.forEach(([name, field], index) => {
    const v = object[name];
    if (v === undefined || isZero(field, v)) return;
    encodeUint(out, BigInt(index - last));
    last = index;
    encodeValue(out, field, v);
  });
  out.push(0);
}

function isZero(type: GobType, value: GobValue): boolean {
  if (type === 'string') return value === '';
  if (type === 'int') return BigInt(value as number | bigint) === 0n;
  if (type === 'bool') return value === false;
  if (type.kind === 'slice') return (value as GobValue[]).length === 0;
  return false; // structs are always sent
}

/** A value, sent even when zero (as Go does for slice elements and singletons). */
function encodeValue(out: number[], type: GobType, value: GobValue): void {
  if (type === 'string') encodeString(out, value as string);
  else if (type === 'int') encodeInt(out, BigInt(value as number | bigint));
  else if (type === 'bool') encodeUint(out, value ? 1n : 0n);
  else if (type.kind === 'struct') encodeStruct(out, type, value);
  else {
    const items = value as GobValue[];
    encodeUint(out, BigInt(items.length));
    for (const item of items) encodeValue(out, type.elem, item);
  }
}

function encodeString(out: number[], value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  encodeUint(out, BigInt(bytes.length));
  for (const b of bytes) out.push(b);
}

/** Go's encodeUint: one byte below 128, else the negated byte count and big-endian bytes. */
function encodeUint(out: number[], value: bigint): void {
  if (value < 128n) {
    out.push(Number(value));
    return;
  }
  const bytes: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  out.push(256 - bytes.length, ...bytes);
}

/** Go's encodeInt: zig-zag (complement of negatives, shifted, low bit set). */
function encodeInt(out: number[], value: bigint): void {
  const mask = (1n << 64n) - 1n;
  encodeUint(out, value < 0n ? ((~value << 1n) | 1n) & mask : (value << 1n) & mask);
}

function message(out: number[], body: number[]): void {
  encodeUint(out, BigInt(body.length));
  out.push(...body);
}
