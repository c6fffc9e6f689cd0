// A CRD generated from TypeBox schemas, installed into the real apiserver, which then
// validates objects with the generated OpenAPI schema.

import { ApiStatusError, type Client, createClient } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomResource, customResourceDefinition } from './custom-resource-definition.js';

const group = 'crd-test.ctrlkit.dev';
const schema = Type.Object({
  spec: Type.Object({
    size: Type.Integer({ minimum: 1, maximum: 10 }),
    color: Type.Union([Type.Literal('red'), Type.Literal('blue')]),
    name: Type.String({ pattern: '^[a-z]+$' }),
    port: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
    labels: Type.Optional(Type.Record(Type.String(), Type.String())),
    extra: Type.Optional(Type.Unknown()),
    note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    limits: Type.Optional(
      Type.Object(
        { min: Type.Integer(), max: Type.Integer() },
        {
          'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min above max' }],
        },
      ),
    ),
  }),
  status: Type.Optional(Type.Object({ ready: Type.Boolean() })),
});
type Gadget = CustomResource<typeof schema>;

const crd = customResourceDefinition({
  group,
  names: { kind: 'Gadget', plural: 'gadgets', shortNames: ['gdg'] },
  versions: [
    {
      name: 'v1',
      schema,
      subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
    },
  ],
});

describe('customResourceDefinition on a real apiserver', () => {
  let kubeConfig: KubeConfig;
  let custom: Client;
  const gadgets = { group, version: 'v1', resource: 'gadgets' };
  let namespace: string;
  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    custom = createClient(kubeConfig);
    await installCRDs(kubeConfig, [crd]);
    namespace = await createTestNamespace(kubeConfig, 'crd-');
  });
  afterAll(() => custom.close());

  const create = (name: string, spec: Record<string, unknown>) =>
    custom.create<Gadget>(
      gadgets,
      { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name }, spec } as Gadget,
      { namespace },
    );

  interface Cause {
    reason: string;
    field: string;
    message: string;
  }
  /** The apiserver's 422 Status for a rejected object: its message and its causes. */
  const rejection = async (
    promise: Promise<unknown>,
  ): Promise<{ message: string; causes: Cause[] }> => {
    try {
      await promise;
    } catch (error) {
      expect(ApiStatusError.isInstance(error)).toBe(true);
      expect(statusCode(error)).toBe(422);
      const status = (error as ApiStatusError).status as {
        reason: string;
        message: string;
        details: { causes: Cause[] };
      };
      expect(status.reason).toBe('Invalid');
      return { message: status.message, causes: status.details.causes };
    }
    throw new Error('the apiserver accepted an invalid object');
  };

  const valid = { size: 3, color: 'red', name: 'abc' };

  it('accepts a valid object, keeps int-or-string, records, unknown content and null', async () => {
    const created = await create('ok', {
      ...valid,
      port: 'http',
      labels: { a: 'b' },
      extra: { anything: [1, { deep: true }] },
      note: null,
      limits: { min: 1, max: 2 },
    });
    expect(created.spec).toEqual({
      ...valid,
      port: 'http',
      labels: { a: 'b' },
      extra: { anything: [1, { deep: true }] },
      note: null,
      limits: { min: 1, max: 2 },
    });
    const numeric = await create('ok-port', { ...valid, port: 8080 });
    expect(numeric.spec.port).toBe(8080);
  });

  it('prunes fields the schema does not know', async () => {
    const created = await create('pruned', { ...valid, unknownField: 1 });
    expect(created.spec).toEqual(valid);
  });

  it('rejects a missing required field with the apiserver error', async () => {
    const { causes } = await rejection(create('no-size', { color: 'red', name: 'abc' }));
    expect(causes).toContainEqual({
      reason: 'FieldValueRequired',
      field: 'spec.size',
      message: 'Required value',
    });
  });

  it('rejects a value outside the enum', async () => {
    const { causes } = await rejection(create('bad-color', { ...valid, color: 'green' }));
    expect(causes).toContainEqual({
      reason: 'FieldValueNotSupported',
      field: 'spec.color',
      message: 'Unsupported value: "green": supported values: "red", "blue"',
    });
  });

  it('rejects a value that does not match the pattern', async () => {
    const { causes } = await rejection(create('bad-name', { ...valid, name: 'ABC' }));
    expect(causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.name',
      message: `Invalid value: "ABC": spec.name in body should match '^[a-z]+$'`,
    });
  });

  it('rejects a value out of bounds, and one breaking an x-kubernetes-validations rule', async () => {
    const tooBig = await rejection(create('too-big', { ...valid, size: 11 }));
    expect(tooBig.causes.map((c) => c.field)).toContain('spec.size');
    expect(tooBig.message).toContain('should be less than or equal to 10');
    const badLimits = await rejection(
      create('bad-limits', { ...valid, limits: { min: 3, max: 2 } }),
    );
    expect(badLimits.causes).toContainEqual(
      expect.objectContaining({
        field: 'spec.limits',
        message: expect.stringContaining('min above max'),
      }),
    );
  });

  it('serves the status subresource', async () => {
    await create('with-status', valid);
    const patched = await custom.patch<Gadget>(
      gadgets,
      'with-status',
      [{ op: 'add', path: '/status', value: { ready: true } }],
      { namespace, type: 'json', subresource: 'status' },
    );
    expect(patched.status).toEqual({ ready: true });
  });
});
