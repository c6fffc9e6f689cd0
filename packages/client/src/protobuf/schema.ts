// The generated schema, compiled per message on first use into lookup tables for the decoder.

import {
  KINDS,
  MESSAGES,
  UNDECODABLE_API_VERSIONS,
  WITHOUT_TYPE_META,
} from './schema.generated.js';
import { Wire, type WireReader } from './wire-reader.js';

/** How a value is written on the wire and in JSON (one per letter of the generated schema). */
export const Kind = {
  String: 0,
  Bool: 1,
  Int32: 2,
  Int64: 3,
  Uint32: 4,
  Uint64: 5,
  Double: 6,
  Bytes: 7,
  Message: 8,
  Inline: 9,
  Time: 10,
  MicroTime: 11,
  Duration: 12,
  Quantity: 13,
  IntOrString: 14,
  RawExtension: 15,
  FieldsV1: 16,
} as const;

const KIND_BY_LETTER: Readonly<Record<string, number>> = {
  s: Kind.String,
  b: Kind.Bool,
  i: Kind.Int32,
  I: Kind.Int64,
  u: Kind.Uint32,
  U: Kind.Uint64,
  d: Kind.Double,
  y: Kind.Bytes,
  t: Kind.Time,
  T: Kind.MicroTime,
  D: Kind.Duration,
  q: Kind.Quantity,
  x: Kind.IntOrString,
  R: Kind.RawExtension,
  F: Kind.FieldsV1,
};

/** What a field absent from the wire becomes in JSON. */
export const Absent = {
  /** Not written (omitempty, or a pointer/slice/map that is nil). */
  Omit: 0,
  /** `null`: a nil pointer, slice or map without omitempty, a zero Time, RawExtension, FieldsV1. */
  Null: 1,
  /** The zero value of a non-pointer field of its kind ("", 0, false, "0", "0s", an empty struct). */
  Zero: 2,
} as const;

/** One field of a message. */
export class FieldSpec {
  /** The message when `kind` is Message or Inline (resolved on first use). */
  message: MessageSpec | undefined = undefined;

  constructor(
    readonly name: string,
    /** The value's kind; for a repeated field its element's, for a map its value's. */
    readonly kind: number,
    /** The message name when the kind is Message or Inline. */
    readonly ref: string,
    readonly repeated: boolean,
    readonly map: boolean,
    /** Dropped when present but zero: a non-pointer omitempty scalar, empty bytes, zero Time with omitzero. */
    readonly dropWhenZero: boolean,
    readonly absent: number,
    /** A Go value that is always on the wire, zero or not: not a pointer, slice, map or inline struct. */
    readonly alwaysWritten: boolean,
  ) {}
}

/** One message: its fields by wire number, and what to fill in when fields are absent. */
export interface MessageSpec {
  readonly name: string;
  readonly byNumber: readonly (FieldSpec | undefined)[];
  /** Fields that are written to JSON when absent from the wire (`null` or a zero value). */
  readonly defaults: readonly FieldSpec[];
  /** Inline (embedded) messages, whose defaults land in this message's object. */
  readonly inlines: readonly FieldSpec[];
  /** For a named slice wrapped in a message (`ExtraValue`): the element kind, else -1. */
  readonly wrapperKind: number;
  /** The message's compiled field decoder (fields-decoder.ts), made on first use. */
  fieldsDecoder: FieldsDecoder | undefined;
}

/** Reads a message's fields from `r.pos` to `end` into `out`. */
export type FieldsDecoder = (r: WireReader, end: number, out: Record<string, unknown>) => void;

const compiled = new Map<string, MessageSpec>();

/** The compiled message `name`; undefined when the schema has no such message. */
export function messageSpec(name: string): MessageSpec | undefined {
  let spec = compiled.get(name);
  if (spec === undefined) {
    const source = MESSAGES[name];
    if (source === undefined) return undefined;
    spec = compile(name, source);
    compiled.set(name, spec);
  }
  return spec;
}

/** The child message of a Message or Inline field. */
export function childSpec(field: FieldSpec): MessageSpec {
  if (field.message === undefined) {
    const spec = messageSpec(field.ref);
    if (spec === undefined) throw new Error(`protobuf schema: no message ${field.ref}`);
    field.message = spec;
  }
  return field.message;
}

function compile(name: string, source: string): MessageSpec {
  if (source.startsWith('=')) {
    const wrapperKind = KIND_BY_LETTER[source.slice(1)];
    if (wrapperKind === undefined) throw new Error(`protobuf schema: bad wrapper ${name}`);
    return { name, byNumber: [], defaults: [], inlines: [], wrapperKind, fieldsDecoder: undefined };
  }
  const byNumber: (FieldSpec | undefined)[] = [];
  const defaults: FieldSpec[] = [];
  const inlines: FieldSpec[] = [];
  for (const entry of source === '' ? [] : source.split(';')) {
    const [num, jsonName, flags, type] = entry.split(',') as [string, string, string, string];
    const field = compileField(jsonName, flags, type);
    for (let n = byNumber.length; n < Number(num); n++) byNumber.push(undefined);
    byNumber[Number(num)] = field;
    if (field.kind === Kind.Inline) inlines.push(field);
    else if (field.absent !== Absent.Omit) defaults.push(field);
  }
  return { name, byNumber, defaults, inlines, wrapperKind: -1, fieldsDecoder: undefined };
}

const SCALARS = new Set<number>([
  Kind.String,
  Kind.Bool,
  Kind.Int32,
  Kind.Int64,
  Kind.Uint32,
  Kind.Uint64,
  Kind.Double,
  Kind.Bytes,
]);

function compileField(name: string, flags: string, type: string): FieldSpec {
  const map = type.startsWith('M');
  const valueType = map ? type.slice(1) : type;
  const letter = KIND_BY_LETTER[valueType];
  const inline = flags.includes('i');
  const kind = inline ? Kind.Inline : (letter ?? Kind.Message);
  const ref = letter === undefined ? valueType : '';
  const pointer = flags.includes('p');
  const nilable = flags.includes('n');
  const omitEmpty = flags.includes('o');
  const omitZero = flags.includes('z');
  const timeKind = kind === Kind.Time || kind === Kind.MicroTime;
  const dropWhenZero =
    !pointer &&
    !map &&
    !flags.includes('r') &&
    (((omitEmpty || omitZero) && SCALARS.has(kind)) || (omitZero && timeKind));
  let absent: number = Absent.Zero;
  if (pointer || nilable) absent = omitEmpty || omitZero ? Absent.Omit : Absent.Null;
  else if (SCALARS.has(kind)) absent = omitEmpty || omitZero ? Absent.Omit : Absent.Zero;
  else if (timeKind || kind === Kind.RawExtension || kind === Kind.FieldsV1)
    absent = omitZero ? Absent.Omit : Absent.Null;
  const alwaysWritten = !pointer && !nilable && !inline;
  return new FieldSpec(
    name,
    kind,
    ref,
    flags.includes('r'),
    map,
    dropWhenZero,
    absent,
    alwaysWritten,
  );
}

/** The root message of `kind` in `apiVersion`, or undefined. */
export function rootSpec(apiVersion: string, kind: string): MessageSpec | undefined {
  const name = KINDS[apiVersion]?.[kind];
  return name === undefined ? undefined : messageSpec(name);
}

const withoutTypeMeta = new Set(WITHOUT_TYPE_META);

/** Whether the JSON of root message `spec` carries apiVersion and kind. */
export function hasTypeMeta(spec: MessageSpec): boolean {
  return !withoutTypeMeta.has(spec.name);
}

/** Whether every kind of `apiVersion` has a protobuf schema. */
export function isSchemaGroupVersion(apiVersion: string): boolean {
  return Object.hasOwn(KINDS, apiVersion) && !UNDECODABLE_API_VERSIONS.includes(apiVersion);
}

/** The wire type each kind is written with (index: kind). */
const WIRE_OF_KIND: readonly number[] = [
  Wire.Bytes, // String
  Wire.Varint, // Bool
  Wire.Varint, // Int32
  Wire.Varint, // Int64
  Wire.Varint, // Uint32
  Wire.Varint, // Uint64
  Wire.Fixed64, // Double
  Wire.Bytes, // Bytes, and every message kind after it
];

/** The wire type `kind` is written with. */
export function wireOf(kind: number): number {
  return kind < WIRE_OF_KIND.length ? WIRE_OF_KIND[kind]! : Wire.Bytes;
}
