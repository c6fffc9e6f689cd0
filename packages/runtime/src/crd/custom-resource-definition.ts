//! CustomResourceDefinitions built from TypeBox schemas: the type and the OpenAPI schema are one source.

import type { Wire } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { V1CustomResourceDefinition, V1ObjectMeta } from '@kubernetes/client-node';
import type { Static, TSchema } from 'typebox';
import { clientNodeIndex } from '../internal/client-node-index.js';
import { type StructuralSchema, structuralSchema } from './structural-schema.js';

/** Where the resources of a CRD live. */
export type CustomResourceScope = 'Namespaced' | 'Cluster';

/** The names of a custom resource (apiextensions `CustomResourceDefinitionNames`). */
export interface CustomResourceNames {
  /** The kind, CamelCase, e.g. `ConfigMapSet`. Required. */
  kind: string;
  /** The resource in URLs, lower case, e.g. `configmapsets`. Required. */
  plural: string;
  /** Default: `kind` in lower case. */
  singular?: string;
  /** Default: `${kind}List`. */
  listKind?: string;
  /** Short names for kubectl, e.g. `['cms']`. Default: none. */
  shortNames?: string[];
  /** Groups kubectl lists together, e.g. `['all']`. Default: none. */
  categories?: string[];
}

/** A column `kubectl get` shows (apiextensions `CustomResourceColumnDefinition`). */
export interface PrinterColumn {
  /** The column's header. Required. */
  name: string;
  /** The OpenAPI type of the value. Required. */
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  /** A JSONPath into the object, e.g. `.spec.replicas`. Required. */
  jsonPath: string;
  description?: string;
  /** An OpenAPI format, e.g. `int32` or `date-time`. */
  format?: string;
  /** 0 shows in the standard view; greater only with `-o wide`. Default 0. */
  priority?: number;
}

/** The status and scale subresources of a version. */
export interface CustomResourceSubresources {
  /** `{}` turns on `/status`: spec and status are then written by separate requests. */
  status?: Record<string, never>;
  /** Turns on `/scale`. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

/** One version of a custom resource. */
export interface CustomResourceVersion {
  /** The version, e.g. `v1` or `v1alpha1`. Required. */
  name: string;
  /** The TypeBox schema of the whole object (its `spec`, `status`, …). Required. */
  schema: TSchema;
  /** Served by the apiserver. Default true. */
  served?: boolean;
  /** The version objects are stored as; exactly one version has it. Default: true when there is one version. */
  storage?: boolean;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: PrinterColumn[];
  /** Warn clients that use this version. Default false. */
  deprecated?: boolean;
  /** The warning of a deprecated version. Default: the apiserver's. */
  deprecationWarning?: string;
}

/** Options of {@link customResourceDefinition}. */
export interface CustomResourceDefinitionOptions {
  /** The API group, a DNS subdomain with a dot, e.g. `examples.ctrlkit.dev`. Required. */
  group: string;
  names: CustomResourceNames;
  /** Default {@link DEFAULT_CUSTOM_RESOURCE_SCOPE}. */
  scope?: CustomResourceScope;
  /** At least one. Required. */
  versions: CustomResourceVersion[];
  /** Labels and annotations of the CRD object itself. Default: none. */
  metadata?: Pick<V1ObjectMeta, 'labels' | 'annotations'>;
}

/** A CRD's scope unless told otherwise: `Namespaced`. */
export const DEFAULT_CUSTOM_RESOURCE_SCOPE: CustomResourceScope = 'Namespaced';

/**
 * The TypeScript type of a custom resource whose version schema is `S`: the schema's
 * static type with `apiVersion`, `kind` and `metadata`.
 */
export type CustomResource<S extends TSchema> = Static<S> & {
  apiVersion: string;
  kind: string;
  /** As it comes from the API: times are RFC 3339 strings ({@link Wire}). */
  metadata: Wire<V1ObjectMeta>;
};

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsLabel = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const kindPattern = /^[A-Z][A-Za-z0-9]*$/;
const columnTypes = new Set(['integer', 'number', 'string', 'boolean', 'date']);

/** What every object has besides its schema; added when the schema does not say. */
const objectEnvelope: Record<string, StructuralSchema> = {
  apiVersion: {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
    type: 'string',
  },
  kind: {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.',
    type: 'string',
  },
  metadata: { type: 'object' },
};

/**
 * A `CustomResourceDefinition` (apiextensions.k8s.io/v1) whose version schemas are
 * generated from TypeBox schemas by {@link structuralSchema}, so the TypeScript type
 * (`Static<typeof schema>`, or {@link CustomResource}) and the OpenAPI schema the
 * apiserver validates with come from one definition. The result is client-node's model
 * object, ready for `ApiextensionsV1Api`, `KubernetesObjectApi` or {@link renderManifests}.
 *
 * Errors: `InvalidArgumentError` naming the option (`names.plural`,
 * `versions[0].schema.properties.spec…`) when an option is missing or invalid, or a
 * schema has no structural form.
 */
export function customResourceDefinition(
  options: CustomResourceDefinitionOptions,
): V1CustomResourceDefinition {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'must be an object');
  }
  const { group, names, versions } = options;
  const scope = options.scope ?? DEFAULT_CUSTOM_RESOURCE_SCOPE;
  if (typeof group !== 'string' || !group.includes('.') || !dnsSubdomain.test(group)) {
    throw new InvalidArgumentError(
      'group',
      `must be a DNS subdomain with a dot, got ${JSON.stringify(group)}`,
    );
  }
  const checkedNames = checkNames(names);
  if (scope !== 'Namespaced' && scope !== 'Cluster') {
    throw new InvalidArgumentError(
      'scope',
      `must be Namespaced or Cluster, got ${JSON.stringify(scope)}`,
    );
  }
  if (!Array.isArray(versions) || versions.length === 0) {
    throw new InvalidArgumentError('versions', 'must list at least one version');
  }
  const wireVersions = versions.map((version, i) => checkVersion(version, i, versions.length));
  const seen = new Set<string>();
  for (const [i, version] of wireVersions.entries()) {
    if (seen.has(version.name)) {
      throw new InvalidArgumentError(`versions[${i}].name`, `${version.name} is listed twice`);
    }
    seen.add(version.name);
  }
  const storage = wireVersions.filter((v) => v.storage).length;
  if (storage !== 1) {
    throw new InvalidArgumentError(
      'versions',
      `exactly one version must have storage: true, got ${storage}`,
    );
  }
  const wire = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${checkedNames.plural}.${group}`,
      ...(options.metadata?.labels !== undefined && { labels: { ...options.metadata.labels } }),
      ...(options.metadata?.annotations !== undefined && {
        annotations: { ...options.metadata.annotations },
      }),
    },
    spec: { group, names: checkedNames, scope, versions: wireVersions },
  };
  // client-node's model names some fields differently (`_enum`, `x_kubernetes_…`): read the
  // wire form the way client-node reads a manifest, so its serializer writes it back intact.
  return clientNodeIndex().loadYaml<V1CustomResourceDefinition>(JSON.stringify(wire));
}

function checkNames(names: CustomResourceNames): CustomResourceNames {
  if (typeof names !== 'object' || names === null) {
    throw new InvalidArgumentError('names', 'must be an object with kind and plural');
  }
  const { kind, plural } = names;
  if (typeof kind !== 'string' || !kindPattern.test(kind)) {
    throw new InvalidArgumentError(
      'names.kind',
      `must be CamelCase letters and digits, got ${JSON.stringify(kind)}`,
    );
  }
  const singular = names.singular ?? kind.toLowerCase();
  for (const [field, value] of [
    ['names.plural', plural],
    ['names.singular', singular],
  ] as const) {
    if (typeof value !== 'string' || !dnsLabel.test(value)) {
      throw new InvalidArgumentError(
        field,
        `must be a lower-case DNS label, got ${JSON.stringify(value)}`,
      );
    }
  }
  const listKind = names.listKind ?? `${kind}List`;
  if (!kindPattern.test(listKind)) {
    throw new InvalidArgumentError(
      'names.listKind',
      `must be CamelCase letters and digits, got ${JSON.stringify(listKind)}`,
    );
  }
  for (const field of ['shortNames', 'categories'] as const) {
    const list = names[field];
    if (
      list !== undefined &&
      (!Array.isArray(list) || !list.every((s) => typeof s === 'string' && dnsLabel.test(s)))
    ) {
      throw new InvalidArgumentError(`names.${field}`, 'must be a list of lower-case DNS labels');
    }
  }
  return {
    kind,
    listKind,
    plural,
    singular,
    ...(names.shortNames !== undefined && { shortNames: [...names.shortNames] }),
    ...(names.categories !== undefined && { categories: [...names.categories] }),
  };
}

function checkVersion(version: CustomResourceVersion, i: number, count: number) {
  const at = `versions[${i}]`;
  if (typeof version !== 'object' || version === null) {
    throw new InvalidArgumentError(at, 'must be an object');
  }
  if (typeof version.name !== 'string' || !dnsLabel.test(version.name)) {
    throw new InvalidArgumentError(
      `${at}.name`,
      `must be a DNS label such as v1, got ${JSON.stringify(version.name)}`,
    );
  }
  if (typeof version.schema !== 'object' || version.schema === null) {
    throw new InvalidArgumentError(`${at}.schema`, 'must be a TypeBox schema');
  }
  const schema = structuralSchema(version.schema, `${at}.schema`);
  if (schema.type !== 'object') {
    throw new InvalidArgumentError(`${at}.schema`, 'must be an object schema (Type.Object)');
  }
  schema.properties = { ...objectEnvelope, ...schema.properties };
  const columns = (version.additionalPrinterColumns ?? []).map((column, c) =>
    checkColumn(column, `${at}.additionalPrinterColumns[${c}]`),
  );
  const subresources = checkSubresources(version.subresources, `${at}.subresources`);
  return {
    name: version.name,
    served: version.served ?? true,
    storage: version.storage ?? count === 1,
    ...(version.deprecated !== undefined && { deprecated: version.deprecated }),
    ...(version.deprecationWarning !== undefined && {
      deprecationWarning: version.deprecationWarning,
    }),
    schema: { openAPIV3Schema: schema },
    ...(subresources !== undefined && { subresources }),
    ...(columns.length > 0 && { additionalPrinterColumns: columns }),
  };
}

function checkColumn(column: PrinterColumn, at: string): PrinterColumn {
  if (typeof column?.name !== 'string' || column.name === '') {
    throw new InvalidArgumentError(`${at}.name`, 'is required');
  }
  if (!columnTypes.has(column.type)) {
    throw new InvalidArgumentError(
      `${at}.type`,
      `must be one of ${[...columnTypes].join(', ')}, got ${JSON.stringify(column.type)}`,
    );
  }
  if (typeof column.jsonPath !== 'string' || !column.jsonPath.startsWith('.')) {
    throw new InvalidArgumentError(
      `${at}.jsonPath`,
      `must be a JSONPath starting with a dot, got ${JSON.stringify(column.jsonPath)}`,
    );
  }
  if (
    column.priority !== undefined &&
    (!Number.isInteger(column.priority) || column.priority < 0)
  ) {
    throw new InvalidArgumentError(`${at}.priority`, 'must be a non-negative integer');
  }
  return {
    name: column.name,
    type: column.type,
    jsonPath: column.jsonPath,
    ...(column.description !== undefined && { description: column.description }),
    ...(column.format !== undefined && { format: column.format }),
    ...(column.priority !== undefined && { priority: column.priority }),
  };
}

function checkSubresources(
  subresources: CustomResourceSubresources | undefined,
  at: string,
): CustomResourceSubresources | undefined {
  if (subresources === undefined) return undefined;
  const { status, scale } = subresources;
  if (
    status !== undefined &&
    (typeof status !== 'object' || status === null || Object.keys(status).length > 0)
  ) {
    throw new InvalidArgumentError(`${at}.status`, 'must be {}');
  }
  if (scale !== undefined) {
    for (const field of ['specReplicasPath', 'statusReplicasPath'] as const) {
      if (typeof scale[field] !== 'string' || !scale[field].startsWith('.')) {
        throw new InvalidArgumentError(
          `${at}.scale.${field}`,
          'must be a JSONPath starting with a dot',
        );
      }
    }
  }
  return {
    ...(status !== undefined && { status: {} }),
    ...(scale !== undefined && { scale: { ...scale } }),
  };
}
