//! The CustomResourceDefinitions of group forklift.ctrlkit.dev/v1beta1, generated from the TypeBox schemas.

import { customResourceDefinition, type PrinterColumn } from '@ctrlkit/runtime/crd';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { type TSchema, Type } from 'typebox';
import { HookSpecSchema, HookStatusSchema } from './api/hook.js';
import { MapStatusSchema, NetworkMapSpecSchema, StorageMapSpecSchema } from './api/mapping.js';
import { MigrationResourceStatusSchema, MigrationSpecSchema } from './api/migration.js';
import { PlanSpecSchema, PlanStatusSchema } from './api/plan.js';
import { ProviderSpecSchema, ProviderStatusSchema } from './api/provider.js';

/** The API group. */
export const GROUP = 'forklift.ctrlkit.dev';
/** The API version. */
export const VERSION = 'v1beta1';
/** `group/version`, the `apiVersion` of every resource. */
export const API_VERSION = `${GROUP}/${VERSION}`;
/** Where the generated manifests are committed, relative to the package. */
export const CRD_MANIFEST_PATH = 'crds/forklift.ctrlkit.dev.yaml';
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

function crd(
  kind: keyof typeof PLURALS,
  spec: TSchema,
  status: TSchema,
  columns: PrinterColumn[],
  shortNames: string[],
): V1CustomResourceDefinition {
  return customResourceDefinition({
    group: GROUP,
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

/** Every CRD of the group, in install order. */
export const forkliftCrds: readonly V1CustomResourceDefinition[] = [
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
