import { InvalidArgumentError } from '@ctrlkit/core';
import { dumpYaml } from '@kubernetes/client-node';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  type CustomResource,
  type CustomResourceDefinitionOptions,
  customResourceDefinition,
} from './custom-resource-definition.js';

const widget = Type.Object({
  spec: Type.Object({
    size: Type.Integer({ minimum: 1 }),
    color: Type.Union([Type.Literal('red'), Type.Literal('blue')]),
    port: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
  }),
  status: Type.Optional(Type.Object({ ready: Type.Boolean() })),
});

const options: CustomResourceDefinitionOptions = {
  group: 'examples.ctrlkit.dev',
  names: { kind: 'Widget', plural: 'widgets', shortNames: ['wd'], categories: ['all'] },
  versions: [
    {
      name: 'v1',
      schema: widget,
      subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
    },
  ],
};

describe('customResourceDefinition', () => {
  it('builds the CRD with defaults: Namespaced, served, the only version stored, names derived', () => {
    const crd = customResourceDefinition(options);
    expect(crd.metadata?.name).toBe('widgets.examples.ctrlkit.dev');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.names).toEqual({
      kind: 'Widget',
      listKind: 'WidgetList',
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      categories: ['all'],
    });
    const [version] = crd.spec.versions;
    expect(version).toMatchObject({ name: 'v1', served: true, storage: true });
    expect(version?.subresources).toEqual({ status: {} });
    expect(version?.additionalPrinterColumns).toEqual([
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    ]);
  });

  it('serializes to the wire schema the apiserver reads (enum and x-kubernetes names intact)', () => {
    const yaml = dumpYaml(customResourceDefinition(options), { lineWidth: -1 });
    const spec = yaml.slice(yaml.indexOf('            spec:'), yaml.indexOf('            status:'));
    expect(spec).toBe(
      [
        '            spec:',
        '              properties:',
        '                size:',
        '                  minimum: 1',
        '                  type: integer',
        '                color:',
        '                  enum:',
        '                    - red',
        '                    - blue',
        '                  type: string',
        '                port:',
        '                  anyOf:',
        '                    - type: integer',
        '                    - type: string',
        '                  x-kubernetes-int-or-string: true',
        '              required:',
        '                - size',
        '                - color',
        '              type: object',
        '',
      ].join('\n'),
    );
    expect(yaml).toContain('          required:\n            - spec\n          type: object\n');
  });

  it('types a custom resource from its schema', () => {
    const object: CustomResource<typeof widget> = {
      apiVersion: 'examples.ctrlkit.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1, color: 'red' },
    };
    // @ts-expect-error: 'green' is not one of the literals
    const wrong: CustomResource<typeof widget>['spec']['color'] = 'green';
    expect([object.spec.color, wrong]).toEqual(['red', 'green']);
  });

  it('needs exactly one storage version when there are several', () => {
    const two = (storage: boolean[]) => ({
      ...options,
      versions: storage.map((s, i) => ({ name: `v${i + 1}`, schema: widget, storage: s })),
    });
    expect(
      customResourceDefinition(two([false, true])).spec.versions.map((v) => v.storage),
    ).toEqual([false, true]);
    expect(() => customResourceDefinition(two([true, true]))).toThrow(/exactly one version/);
    expect(() => customResourceDefinition(two([false, false]))).toThrow(/exactly one version/);
  });

  it.each([
    ['group', { ...options, group: 'nodot' }],
    ['names.kind', { ...options, names: { kind: 'widget', plural: 'widgets' } }],
    ['names.plural', { ...options, names: { kind: 'Widget', plural: 'Widgets' } }],
    ['names.shortNames', { ...options, names: { ...options.names, shortNames: ['W D'] } }],
    ['scope', { ...options, scope: 'Global' as never }],
    ['versions', { ...options, versions: [] }],
    ['versions[0].name', { ...options, versions: [{ name: 'V1', schema: widget }] }],
    ['versions[0].schema', { ...options, versions: [{ name: 'v1', schema: Type.String() }] }],
    [
      'versions[0].schema.properties.spec.properties.size.uniqueItems',
      {
        ...options,
        versions: [
          {
            name: 'v1',
            schema: Type.Object({
              spec: Type.Object({ size: Type.Array(Type.String(), { uniqueItems: true }) }),
            }),
          },
        ],
      },
    ],
    [
      'versions[0].additionalPrinterColumns[0].jsonPath',
      {
        ...options,
        versions: [
          {
            name: 'v1',
            schema: widget,
            additionalPrinterColumns: [
              { name: 'Size', type: 'integer' as const, jsonPath: 'spec.size' },
            ],
          },
        ],
      },
    ],
    [
      'versions[1].name',
      {
        ...options,
        versions: [
          { name: 'v1', schema: widget },
          { name: 'v1', schema: widget, storage: false },
        ],
      },
    ],
  ])('rejects an invalid %s, naming it', (field, invalid) => {
    let error: unknown;
    try {
      customResourceDefinition(invalid as CustomResourceDefinitionOptions);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).field).toBe(field);
  });
});
