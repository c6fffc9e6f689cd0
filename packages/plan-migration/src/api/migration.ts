//! The Migration resource: one execution of a Plan.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { type Static, Type } from 'typebox';
import { ConditionSchema } from './condition.js';
import { VMStatusSchema } from './plan.js';
import { RefSchema } from './ref.js';

/** A per-VM cutover time (warm). */
export const VMCutoverSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  cutover: Type.String({ format: 'date-time' }),
});

/** `Migration.spec`. */
export const MigrationSpecSchema = Type.Object({
  plan: Type.Object({
    namespace: Type.Optional(Type.String()),
    name: Type.String({ minLength: 1 }),
  }),
  cancel: Type.Optional(Type.Array(RefSchema)),
  cutover: Type.Optional(Type.String({ format: 'date-time' })),
  vmCutover: Type.Optional(Type.Array(VMCutoverSchema)),
});

/** `Migration.status`: mirrored from the plan's active snapshot. */
export const MigrationResourceStatusSchema = Type.Object({
  started: Type.Optional(Type.String({ format: 'date-time' })),
  completed: Type.Optional(Type.String({ format: 'date-time' })),
  observedGeneration: Type.Optional(Type.Integer()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  vms: Type.Optional(Type.Array(VMStatusSchema)),
});

/** `Migration.spec` as a type. */
export type MigrationSpec = Static<typeof MigrationSpecSchema>;
/** `Migration.status` as a type. */
export type MigrationResourceStatus = Static<typeof MigrationResourceStatusSchema>;

/** A Migration custom resource. */
export interface Migration {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: MigrationSpec;
  status?: MigrationResourceStatus;
}

/** Whether `spec.cancel` lists the VM; matched only by non-empty id, as upstream. */
export function isCanceled(migration: Pick<Migration, 'spec'>, vm: { id?: string }): boolean {
  if (!vm.id) return false;
  return (migration.spec.cancel ?? []).some((ref) => ref.id !== undefined && ref.id === vm.id);
}

/**
 * When the VM's cutover is due (epoch ms): a per-VM `vmCutover` wins over the global
 * `cutover`; undefined when neither is set.
 */
export function cutoverFor(
  migration: Pick<Migration, 'spec'>,
  vmId: string | undefined,
): number | undefined {
  const own = vmId ? migration.spec.vmCutover?.find((c) => c.id === vmId) : undefined;
  const at = own?.cutover ?? migration.spec.cutover;
  return at === undefined ? undefined : Date.parse(at);
}
