import { InvalidArgumentError } from '@ctrlkit/core';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { structuralSchema } from './structural-schema.js';

describe('structuralSchema', () => {
  it('keeps types, required properties and value validations, and drops TypeBox keywords', () => {
    const schema = Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z]+$' }),
        replicas: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, default: 1 })),
        ratio: Type.Number({ description: 'a fraction', examples: [0.5] }),
        enabled: Type.Boolean(),
        tags: Type.Array(Type.String(), { maxItems: 5 }),
      },
      { $id: 'Spec', description: 'the spec' },
    );
    expect(structuralSchema(schema)).toEqual({
      description: 'the spec',
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 63, minLength: 1, pattern: '^[a-z]+$' },
        replicas: { type: 'integer', default: 1, maximum: 10, minimum: 0 },
        ratio: { description: 'a fraction', type: 'number', example: 0.5 },
        enabled: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      },
      required: ['name', 'ratio', 'enabled', 'tags'],
    });
  });

  it('turns unions of literals and Type.Enum into enum with a type', () => {
    expect(structuralSchema(Type.Union([Type.Literal('A'), Type.Literal('B')]))).toEqual({
      type: 'string',
      enum: ['A', 'B'],
    });
    expect(structuralSchema(Type.Enum(['x', 'y']))).toEqual({ type: 'string', enum: ['x', 'y'] });
    expect(structuralSchema(Type.Enum([1, 2]))).toEqual({ type: 'integer', enum: [1, 2] });
    expect(structuralSchema(Type.Literal(true))).toEqual({ type: 'boolean', enum: [true] });
  });

  it('turns a union with null into nullable, and integer | string into int-or-string', () => {
    expect(
      structuralSchema(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    ).toEqual({ type: 'string', format: 'date-time', nullable: true });
    expect(
      structuralSchema(Type.Union([Type.Integer(), Type.String()], { description: 'a port' })),
    ).toEqual({
      description: 'a port',
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
  });

  it('keeps unknown content where the schema says any value or any extra property', () => {
    expect(structuralSchema(Type.Unknown())).toEqual({
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(
      structuralSchema(Type.Object({ a: Type.String() }, { additionalProperties: true })),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(
      structuralSchema(Type.Object({ a: Type.String() }, { additionalProperties: false })),
    ).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
  });

  it('turns string-keyed records into additionalProperties', () => {
    expect(structuralSchema(Type.Record(Type.String(), Type.Integer()))).toEqual({
      type: 'object',
      additionalProperties: { type: 'integer' },
    });
  });

  it('merges intersected objects', () => {
    const schema = Type.Intersect([
      Type.Object({ a: Type.String() }),
      Type.Object({ b: Type.Optional(Type.Integer()), c: Type.Boolean() }),
    ]);
    expect(structuralSchema(schema)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } },
      required: ['a', 'c'],
    });
  });

  it('turns numeric exclusive bounds into OpenAPI v3.0 booleans', () => {
    expect(structuralSchema(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }))).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: true,
    });
  });

  it('keeps x-kubernetes extensions given as options', () => {
    const schema = Type.Array(Type.Object({ name: Type.String() }), {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(structuralSchema(schema)).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    const rule = { rule: 'self.min <= self.max', message: 'min above max' };
    expect(
      structuralSchema(
        Type.Object(
          { min: Type.Integer(), max: Type.Integer() },
          { 'x-kubernetes-validations': [rule] },
        ),
      )['x-kubernetes-validations'],
    ).toEqual([rule]);
  });

  it.each([
    [
      'a union of objects',
      Type.Object({ x: Type.Union([Type.Object({ a: Type.String() }), Type.Integer()]) }),
      'schema.properties.x',
    ],
    [
      'a tuple',
      Type.Object({ t: Type.Tuple([Type.String(), Type.Integer()]) }),
      'schema.properties.t.items',
    ],
    ['uniqueItems', Type.Array(Type.String(), { uniqueItems: true }), 'schema.uniqueItems'],
    [
      'a record with number keys',
      Type.Record(Type.Number(), Type.String()),
      'schema.patternProperties',
    ],
    ['a $ref', Type.Object({ r: Type.Ref('Other') }), 'schema.properties.r.$ref'],
    ['a bigint', Type.BigInt(), 'schema.type'],
    ['an unknown keyword', Type.String({ contentEncoding: 'base64' }), 'schema.contentEncoding'],
    ['mixed enum values', Type.Enum(['a', 1]), 'schema'],
  ])('refuses %s, naming the path', (_what, schema, field) => {
    let error: unknown;
    try {
      structuralSchema(schema);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).field).toBe(field);
  });
});
