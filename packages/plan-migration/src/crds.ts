//! The CustomResourceDefinitions of group forklift.ctrlkit.dev/v1beta1 (or Forklift's forklift.konveyor.io), generated from the TypeBox schemas.

import { InvalidArgumentError } from '@ctrlkit/core';
import { customResourceDefinition, type PrinterColumn } from '@ctrlkit/runtime/crd';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { type TSchema, Type } from 'typebox';
import { HookSpecSchema, HookStatusSchema } from './api/hook.js';
import { MapStatusSchema, NetworkMapSpecSchema, StorageMapSpecSchema } from './api/mapping.js';
import { MigrationResourceStatusSchema, MigrationSpecSchema } from './api/migration.js';
import { PlanSpecSchema, PlanStatusSchema } from './api/plan.js';
import { ProviderSpecSchema, ProviderStatusSchema } from './api/provider.js';

/** The API group by default: ctrlkit's own, so that it can run beside an installed Forklift. */
export const GROUP = 'forklift.ctrlkit.dev';
/** Forklift's API group, for Forklift's own manifests unchanged. */
export const FORKLIFT_GROUP = 'forklift.konveyor.io';
/** The API groups the CRDs and controllers can serve. */
export const API_GROUPS = [GROUP, FORKLIFT_GROUP] as const;
/** One of {@link API_GROUPS}. */
export type ApiGroup = (typeof API_GROUPS)[number];
/** The API version. */
export const VERSION = 'v1beta1';
/** `group/version`, the `apiVersion` of every resource. */
export const API_VERSION = `${GROUP}/${VERSION}`;
/** Where the generated manifests of {@link GROUP} are committed, relative to the package. */
export const CRD_MANIFEST_PATH = 'crds/forklift.ctrlkit.dev.yaml';
/** Where the generated manifests of each API group are committed, relative to the package. */
export const CRD_MANIFEST_PATHS: Readonly<Record<ApiGroup, string>> = {
  [GROUP]: CRD_MANIFEST_PATH,
  [FORKLIFT_GROUP]: 'crds/forklift.konveyor.io.yaml',
};

/** `group/version` of `group`: the `apiVersion` of its resources. */
export const apiVersionOf = (group: ApiGroup): string => `${group}/${VERSION}`;

/** `value` (an option named `field`) when it is one of {@link API_GROUPS}, {@link GROUP} when absent. */
export function apiGroupOption(field: string, value: unknown): ApiGroup {
  if (value === undefined) return GROUP;
  if (!(API_GROUPS as readonly unknown[]).includes(value)) {
    throw new InvalidArgumentError(
      field,
      `must be one of ${API_GROUPS.join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return value as ApiGroup;
}
/** The command that regenerates {@link CRD_MANIFEST_PATH}. */
export const REGENERATE_CRDS_COMMAND = 'pnpm --filter @ctrlkit/plan-migration generate:crds';

/** Plural resource names, for API paths. */
export const PLURALS = {
  Provider: 'providers',
  NetworkMap: 'networkmaps',
  StorageMap: 'storagemaps',
  Hook: 'hooks',
  Plan: 'plans',
  Migration: 'migrations',
} as const;

const condition = (type: string): string => `.status.conditions[?(@.type=='${type}')].status`;
const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

function kindCrd(
  group: ApiGroup,
  kind: keyof typeof PLURALS,
  spec: TSchema,
  status: TSchema,
  columns: PrinterColumn[],
  shortNames: string[],
): V1CustomResourceDefinition {
  return customResourceDefinition({
    group,
    names: { kind, plural: PLURALS[kind], shortNames, categories: ['forklift'] },
    versions: [
      {
        name: VERSION,
        schema: Type.Object({ spec, status: Type.Optional(status) }),
        subresources: { status: {} },
        additionalPrinterColumns: [...columns, age],
      },
    ],
  });
}

const readyColumn: PrinterColumn = { name: 'Ready', type: 'string', jsonPath: condition('Ready') };

type KindArgs = Parameters<typeof kindCrd> extends [ApiGroup, ...infer R] ? R : never;

/** Every CRD of `group`, in install order: the same kinds and schemas in either group. */
export function forkliftCrdsOf(group: ApiGroup): V1CustomResourceDefinition[] {
  const crd = (...args: KindArgs) => kindCrd(group, ...args);
  return [
    crd(
      'Provider',
      ProviderSpecSchema,
      ProviderStatusSchema,
      [{ name: 'Type', type: 'string', jsonPath: '.spec.type' }, readyColumn],
      [],
    ),
    crd('NetworkMap', NetworkMapSpecSchema, MapStatusSchema, [readyColumn], ['netmap']),
    crd('StorageMap', StorageMapSpecSchema, MapStatusSchema, [readyColumn], ['stomap']),
    crd(
      'Hook',
      HookSpecSchema,
      HookStatusSchema,
      [{ name: 'Image', type: 'string', jsonPath: '.spec.image' }, readyColumn],
      [],
    ),
    crd(
      'Plan',
      PlanSpecSchema,
      PlanStatusSchema,
      [
        readyColumn,
        { name: 'Executing', type: 'string', jsonPath: condition('Executing') },
        { name: 'Succeeded', type: 'string', jsonPath: condition('Succeeded') },
        { name: 'Failed', type: 'string', jsonPath: condition('Failed') },
      ],
      [],
    ),
    crd(
      'Migration',
      MigrationSpecSchema,
      MigrationResourceStatusSchema,
      [
        { name: 'Plan', type: 'string', jsonPath: '.spec.plan.name' },
        { name: 'Running', type: 'string', jsonPath: condition('Running') },
        { name: 'Succeeded', type: 'string', jsonPath: condition('Succeeded') },
        { name: 'Failed', type: 'string', jsonPath: condition('Failed') },
      ],
      [],
    ),
  ];
}

/** Every CRD of {@link GROUP}, in install order. */
export const forkliftCrds: readonly V1CustomResourceDefinition[] = forkliftCrdsOf(GROUP);
