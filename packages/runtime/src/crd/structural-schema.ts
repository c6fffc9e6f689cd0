//! TypeBox schemas to the structural OpenAPI v3 schemas a CustomResourceDefinition accepts.

import { InvalidArgumentError } from '@ctrlkit/core';
import type { TSchema } from 'typebox';

/**
 * A structural OpenAPI v3 schema as the apiserver reads it (apiextensions.k8s.io/v1
 * `JSONSchemaProps`, wire names such as `enum`, `default`, `x-kubernetes-int-or-string`).
 */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, StructuralSchema>;
  required?: string[];
  items?: StructuralSchema;
  additionalProperties?: StructuralSchema;
  anyOf?: StructuralSchema[];
  enum?: unknown[];
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  [keyword: string]: unknown;
}

/** Keywords copied as they are: the value validations and annotations `JSONSchemaProps` has. */
const copied = new Set([
  'description',
  'title',
  'format',
  'default',
  'example',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'nullable',
  'externalDocs',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/** Keywords handled below, or TypeBox's own and dropped (`$id`, `$schema`). */
const handled = new Set([
  'type',
  'properties',
  'required',
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'patternProperties',
  'anyOf',
  'allOf',
  'enum',
  'const',
  'examples',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'uniqueItems',
  '$id',
  '$schema',
]);

/** The key pattern of `Type.Record(Type.String(), …)`: any key. */
const anyKeyPattern = '^.*$';

const scalarTypes = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * Turns a TypeBox schema (JSON Schema) into the structural schema of a CRD version:
 * - TypeBox's own keywords (`~kind`, `$id`, `$schema`) are dropped;
 * - `Type.Unknown()`/`Type.Any()` become `x-kubernetes-preserve-unknown-fields: true`, as
 *   does `additionalProperties: true` on an object; `additionalProperties: false` is dropped
 *   (the apiserver prunes unknown fields anyway);
 * - `Type.Record(Type.String(), v)` becomes `additionalProperties: v`;
 * - a union of literals (or `Type.Enum`) becomes `enum` with a `type`; `const` becomes a
 *   one-value `enum`; a union with `Type.Null()` becomes `nullable: true`; the union of
 *   `Type.Integer()` and `Type.String()` becomes `x-kubernetes-int-or-string: true`;
 * - `Type.Intersect` of objects is merged into one object;
 * - a numeric `exclusiveMinimum`/`exclusiveMaximum` becomes `minimum`/`maximum` with the
 *   OpenAPI v3.0 boolean; `examples` becomes `example` (the first);
 * - `x-kubernetes-*` extensions given as schema options are kept.
 *
 * Errors: `InvalidArgumentError` naming the schema path (e.g. `schema.properties.spec`) for
 * what has no structural form: other unions, tuples, `$ref`, `uniqueItems` (use
 * `'x-kubernetes-list-type': 'set'`), records with key patterns, unknown keywords.
 */
export function structuralSchema(schema: TSchema, path = 'schema'): StructuralSchema {
  return convert(schema as Record<string, unknown>, path);
}

function convert(schema: Record<string, unknown>, path: string): StructuralSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidArgumentError(path, 'must be a schema object');
  }
  if ('$ref' in schema) {
    throw new InvalidArgumentError(
      `${path}.$ref`,
      'references are not allowed in a CRD schema; inline the schema',
    );
  }
  for (const keyword of Object.keys(schema)) {
    if (!copied.has(keyword) && !handled.has(keyword)) {
      throw new InvalidArgumentError(
        `${path}.${keyword}`,
        'this keyword has no equivalent in a CRD schema',
      );
    }
  }
  if (schema.anyOf !== undefined) return convertUnion(schema, path);
  if (schema.allOf !== undefined) return convertIntersection(schema, path);

  const out: StructuralSchema = {};
  const type = schemaType(schema, path);
  if (type !== undefined) out.type = type;
  copyAnnotations(schema, out);
  copyBounds(schema, out, path);

  if (schema.const !== undefined) out.enum = [schema.const];
  if (schema.enum !== undefined) out.enum = [...(schema.enum as unknown[])];

  switch (type) {
    case 'object':
      convertObject(schema, out, path);
      break;
    case 'array':
      convertArray(schema, out, path);
      break;
    case undefined:
      // Type.Unknown() / Type.Any(): any value, kept as it is.
      if (out['x-kubernetes-int-or-string'] !== true) {
        out['x-kubernetes-preserve-unknown-fields'] = true;
      }
      break;
  }
  return orderKeys(out);
}

function schemaType(
  schema: Record<string, unknown>,
  path: string,
): StructuralSchema['type'] | undefined {
  const type = schema.type;
  if (type === undefined) {
    const values =
      (schema.enum as unknown[] | undefined) ??
      (schema.const !== undefined ? [schema.const] : undefined);
    return values === undefined ? undefined : typeOfValues(values, path);
  }
  if (
    type === 'object' ||
    type === 'array' ||
    (typeof type === 'string' && scalarTypes.has(type))
  ) {
    return type as StructuralSchema['type'];
  }
  throw new InvalidArgumentError(
    `${path}.type`,
    `${JSON.stringify(type)} has no JSON form a CRD can hold (use object, array, string, integer, number or boolean)`,
  );
}

/** The one type of enum values: string, integer, number or boolean. */
function typeOfValues(values: readonly unknown[], path: string): StructuralSchema['type'] {
  const types = new Set(
    values.map((v) =>
      typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v,
    ),
  );
  if (types.has('number')) types.delete('integer');
  if (types.size === 1) {
    const [only] = types;
    if (only !== undefined && scalarTypes.has(only)) return only as StructuralSchema['type'];
  }
  throw new InvalidArgumentError(
    path,
    `enum values must all be strings, all numbers or all booleans, got ${JSON.stringify(values)}`,
  );
}

function copyAnnotations(schema: Record<string, unknown>, out: StructuralSchema): void {
  for (const [keyword, value] of Object.entries(schema)) {
    if (copied.has(keyword)) out[keyword] = value;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && out.example === undefined) {
    out.example = schema.examples[0];
  }
}

/** JSON Schema's numeric exclusive bounds to OpenAPI v3.0's booleans; `uniqueItems` refused. */
function copyBounds(schema: Record<string, unknown>, out: StructuralSchema, path: string): void {
  for (const [exclusive, bound, tighter] of [
    ['exclusiveMinimum', 'minimum', (a: number, b: number) => a >= b],
    ['exclusiveMaximum', 'maximum', (a: number, b: number) => a <= b],
  ] as const) {
    const value = schema[exclusive];
    if (value === undefined) continue;
    if (typeof value === 'boolean') {
      out[exclusive] = value;
      continue;
    }
    if (typeof value !== 'number') {
      throw new InvalidArgumentError(`${path}.${exclusive}`, 'must be a number');
    }
    const current = out[bound] as number | undefined;
    if (current === undefined || tighter(value, current)) {
      out[bound] = value;
      out[exclusive] = true;
    }
  }
  if (schema.uniqueItems === true) {
    throw new InvalidArgumentError(
      `${path}.uniqueItems`,
      "the apiserver refuses uniqueItems; use 'x-kubernetes-list-type': 'set' instead",
    );
  }
}

function convertObject(schema: Record<string, unknown>, out: StructuralSchema, path: string): void {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties !== undefined) {
    out.properties = {};
    for (const [name, property] of Object.entries(properties)) {
      out.properties[name] = convert(property, `${path}.properties.${name}`);
    }
  }
  const required = schema.required as string[] | undefined;
  if (required !== undefined && required.length > 0) out.required = [...required];

  const patterns = schema.patternProperties as Record<string, Record<string, unknown>> | undefined;
  let additional = schema.additionalProperties;
  if (patterns !== undefined) {
    const keys = Object.keys(patterns);
    if (keys.length !== 1 || keys[0] !== anyKeyPattern || additional !== undefined) {
      throw new InvalidArgumentError(
        `${path}.patternProperties`,
        'a CRD schema has no key patterns; only records with string keys (Type.Record(Type.String(), …)) are allowed',
      );
    }
    additional = patterns[anyKeyPattern];
  }
  if (additional === true) {
    out['x-kubernetes-preserve-unknown-fields'] = true;
  } else if (typeof additional === 'object' && additional !== null) {
    if (out.properties !== undefined) {
      throw new InvalidArgumentError(
        `${path}.additionalProperties`,
        'an object cannot have both properties and additionalProperties in a CRD schema',
      );
    }
    out.additionalProperties = convert(
      additional as Record<string, unknown>,
      `${path}.additionalProperties`,
    );
  }
}

function convertArray(schema: Record<string, unknown>, out: StructuralSchema, path: string): void {
  const items = schema.items;
  if (Array.isArray(items) || schema.prefixItems !== undefined) {
    throw new InvalidArgumentError(
      `${path}.items`,
      'tuples have no structural form; use an array of one item type',
    );
  }
  if (items === undefined) {
    throw new InvalidArgumentError(`${path}.items`, 'an array needs an item schema');
  }
  out.items = convert(items as Record<string, unknown>, `${path}.items`);
}

/** `anyOf`: null (nullable), literals (enum), integer|string (int-or-string); nothing else. */
function convertUnion(schema: Record<string, unknown>, path: string): StructuralSchema {
  const branches = schema.anyOf as Array<Record<string, unknown>>;
  const nonNull = branches.filter((b) => b.type !== 'null');
  const nullable = nonNull.length < branches.length;
  const outer: StructuralSchema = {};
  copyAnnotations(schema, outer);
  if (nullable) outer.nullable = true;
  let converted: StructuralSchema;
  if (nonNull.length === 1) {
    converted = convert(nonNull[0] as Record<string, unknown>, `${path}.anyOf[0]`);
  } else if (nonNull.length > 0 && nonNull.every(isLiteral)) {
    const values = nonNull.flatMap((b) =>
      b.const !== undefined ? [b.const] : (b.enum as unknown[]),
    );
    converted = { type: typeOfValues(values, path), enum: values };
  } else if (isIntOrString(nonNull)) {
    converted = {
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    };
  } else {
    throw new InvalidArgumentError(
      path,
      'a union in a CRD schema may only be of literals, with null, or of integer and string; model alternatives as optional properties (with x-kubernetes-validations)',
    );
  }
  return orderKeys({ ...converted, ...outer });
}

function isLiteral(branch: Record<string, unknown>): boolean {
  const keys = Object.keys(branch).filter((k) => k !== 'type');
  return keys.length === 1 && (keys[0] === 'const' || keys[0] === 'enum');
}

function isIntOrString(branches: Array<Record<string, unknown>>): boolean {
  const types = branches.map((b) => (Object.keys(b).length === 1 ? b.type : undefined)).sort();
  return types.length === 2 && types[0] === 'integer' && types[1] === 'string';
}

/** `allOf` of objects (`Type.Intersect`): one object with every property and requirement. */
function convertIntersection(schema: Record<string, unknown>, path: string): StructuralSchema {
  const parts = (schema.allOf as Array<Record<string, unknown>>).map((part, i) =>
    convert(part, `${path}.allOf[${i}]`),
  );
  const merged: StructuralSchema = { type: 'object' };
  for (const [i, part] of parts.entries()) {
    if (part.type !== 'object' || part.additionalProperties !== undefined) {
      throw new InvalidArgumentError(
        `${path}.allOf[${i}]`,
        'only objects with properties can be intersected in a CRD schema',
      );
    }
    for (const [keyword, value] of Object.entries(part)) {
      if (keyword === 'properties') {
        merged.properties = {
          ...merged.properties,
          ...(value as Record<string, StructuralSchema>),
        };
      } else if (keyword === 'required') {
        merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
      } else {
        merged[keyword] = value;
      }
    }
  }
  copyAnnotations(schema, merged);
  return orderKeys(merged);
}

/** Keys in the order controller-gen writes them, so generated YAML reads as usual. */
const keyOrder = [
  'description',
  'title',
  'type',
  'format',
  'nullable',
  'default',
  'example',
  'enum',
  'anyOf',
  'items',
  'properties',
  'additionalProperties',
  'required',
];

function orderKeys(schema: StructuralSchema): StructuralSchema {
  const out: StructuralSchema = {};
  for (const key of keyOrder) if (schema[key] !== undefined) out[key] = schema[key];
  for (const key of Object.keys(schema).sort()) {
    if (!(key in out) && schema[key] !== undefined) out[key] = schema[key];
  }
  return out;
}
