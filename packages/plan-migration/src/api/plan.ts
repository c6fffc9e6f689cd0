//! The Plan resource: which VMs go where, and the status of their migrations.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { type Static, Type } from 'typebox';
import { ConditionSchema } from './condition.js';
import { ObjectReferenceSchema, RefSchema } from './ref.js';
import { stringEnum } from './string-enum.js';

/** A DNS-1123 label (namespaces). */
export const DNS1123_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** A DNS-1123 subdomain (object names). */
export const DNS1123_SUBDOMAIN_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** Hook steps. */
export const HOOK_STEPS = ['PreHook', 'PostHook'] as const;
/** Migration types (`Plan.spec.type`). */
export const MIGRATION_TYPES = ['cold', 'warm', 'live', 'conversion'] as const;
/** A migration type. */
export type MigrationType = (typeof MIGRATION_TYPES)[number];
/** Target power states of a migrated VM. */
export const TARGET_POWER_STATES = ['on', 'off', 'auto'] as const;
/** A target power state. */
export type TargetPowerState = (typeof TARGET_POWER_STATES)[number];

const NamedRef = Type.Object({
  namespace: Type.Optional(Type.String()),
  name: Type.String({ minLength: 1 }),
});

/** A VM's hook: which Hook runs at which step. */
export const HookRefSchema = Type.Object({
  step: stringEnum(HOOK_STEPS),
  hook: ObjectReferenceSchema,
});

/** `Plan.spec.vms[]`. */
export const PlanVMSchema = Type.Object({
  ...RefSchema.properties,
  hooks: Type.Optional(Type.Array(HookRefSchema)),
  targetName: Type.Optional(Type.String()),
  targetPowerState: Type.Optional(stringEnum(TARGET_POWER_STATES)),
  pvcNameTemplate: Type.Optional(Type.String()),
  volumeNameTemplate: Type.Optional(Type.String()),
  networkNameTemplate: Type.Optional(Type.String()),
  deleteVmOnFailMigration: Type.Optional(Type.Boolean()),
  /** The Secret holding the passphrases of the VM's LUKS-encrypted disks (vsphere and ova sources only). */
  luks: Type.Optional(ObjectReferenceSchema),
});

/** `Plan.spec`. */
export const PlanSpecSchema = Type.Object({
  description: Type.Optional(Type.String()),
  provider: Type.Object({ source: NamedRef, destination: NamedRef }),
  targetNamespace: Type.String({ minLength: 1, maxLength: 63, pattern: DNS1123_LABEL_PATTERN }),
  map: Type.Object({ network: NamedRef, storage: Type.Optional(NamedRef) }),
  vms: Type.Array(PlanVMSchema, { minItems: 1 }),
  warm: Type.Optional(Type.Boolean()),
  type: Type.Optional(stringEnum(MIGRATION_TYPES)),
  archived: Type.Optional(Type.Boolean()),
  transferNetwork: Type.Optional(ObjectReferenceSchema),
  deleteVmOnFailMigration: Type.Optional(Type.Boolean()),
  targetLabels: Type.Optional(Type.Record(Type.String(), Type.String())),
  targetPowerState: Type.Optional(stringEnum(TARGET_POWER_STATES)),
  pvcNameTemplate: Type.Optional(Type.String()),
  volumeNameTemplate: Type.Optional(Type.String()),
  networkNameTemplate: Type.Optional(Type.String()),
});

/** `{completed, total}` of a step or task. */
export const ProgressSchema = Type.Object({
  completed: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
});

/** An error of a VM, step or task: the phase it happened in and its deduplicated reasons. */
export const ErrorSchema = Type.Object({
  phase: Type.String(),
  reasons: Type.Array(Type.String()),
});

const timed = {
  started: Type.Optional(Type.String({ format: 'date-time' })),
  completed: Type.Optional(Type.String({ format: 'date-time' })),
};

/** A unit of work of a step (one disk, for disk transfer). */
export const TaskSchema = Type.Object({
  ...timed,
  name: Type.String(),
  description: Type.Optional(Type.String()),
  phase: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  progress: ProgressSchema,
  annotations: Type.Optional(Type.Record(Type.String(), Type.String())),
  error: Type.Optional(ErrorSchema),
});

/** A pipeline step: a task with subtasks. */
export const StepSchema = Type.Object({
  ...TaskSchema.properties,
  tasks: Type.Optional(Type.Array(TaskSchema)),
});

/** One precopy of a warm migration. */
export const PrecopySchema = Type.Object({
  start: Type.Optional(Type.String({ format: 'date-time' })),
  end: Type.Optional(Type.String({ format: 'date-time' })),
  snapshot: Type.Optional(Type.String()),
});

/** Warm migration state of a VM. */
export const WarmSchema = Type.Object({
  successes: Type.Integer(),
  failures: Type.Integer(),
  consecutiveFailures: Type.Integer(),
  nextPrecopyAt: Type.Optional(Type.String({ format: 'date-time' })),
  precopies: Type.Optional(Type.Array(PrecopySchema)),
});

/** The migration status of one VM. */
export const VMStatusSchema = Type.Object({
  ...timed,
  ...PlanVMSchema.properties,
  phase: Type.String(),
  pipeline: Type.Array(StepSchema),
  error: Type.Optional(ErrorSchema),
  warm: Type.Optional(WarmSchema),
  restorePowerState: Type.Optional(stringEnum(['On', 'Off', 'Unknown'])),
  newName: Type.Optional(Type.String()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
});

/** `{namespace, name, uid, generation}` of an object when a snapshot was taken. */
export const SnapshotRefSchema = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  uid: Type.String(),
  generation: Type.Integer(),
});

/** What one execution of a plan ran against, and its conditions. */
export const SnapshotSchema = Type.Object({
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  provider: Type.Object({ source: SnapshotRefSchema, destination: SnapshotRefSchema }),
  plan: SnapshotRefSchema,
  map: Type.Object({ network: SnapshotRefSchema, storage: SnapshotRefSchema }),
  migration: SnapshotRefSchema,
});

/** `Plan.status.migration`. */
export const MigrationStatusSchema = Type.Object({
  ...timed,
  history: Type.Optional(Type.Array(SnapshotSchema)),
  vms: Type.Optional(Type.Array(VMStatusSchema)),
});

/** `Plan.status`. */
export const PlanStatusSchema = Type.Object({
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  observedGeneration: Type.Optional(Type.Integer()),
  migration: Type.Optional(MigrationStatusSchema),
});

/** `Plan.spec` as a type. */
export type PlanSpec = Static<typeof PlanSpecSchema>;
/** `Plan.spec.vms[]` as a type. */
export type PlanVM = Static<typeof PlanVMSchema>;
/** A hook reference. */
export type HookRef = Static<typeof HookRefSchema>;
/** `Plan.status` as a type. */
export type PlanStatus = Static<typeof PlanStatusSchema>;
/** `Plan.status.migration` as a type. */
export type MigrationStatus = Static<typeof MigrationStatusSchema>;
/** A snapshot. */
export type Snapshot = Static<typeof SnapshotSchema>;
/** A snapshot reference. */
export type SnapshotRef = Static<typeof SnapshotRefSchema>;
/** A VM's migration status. */
export type VMStatus = Static<typeof VMStatusSchema>;
/** A pipeline step. */
export type Step = Static<typeof StepSchema>;
/** A task. */
export type Task = Static<typeof TaskSchema>;
/** Progress of a step or task. */
export type Progress = Static<typeof ProgressSchema>;
/** An error of a VM, step or task. */
export type PipelineError = Static<typeof ErrorSchema>;
/** Warm migration state. */
export type Warm = Static<typeof WarmSchema>;

/** A Plan custom resource. */
export interface Plan {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: PlanSpec;
  status?: PlanStatus;
}

/** Warm means `spec.warm` or `spec.type == 'warm'`. */
export function isWarm(plan: Pick<Plan, 'spec'>): boolean {
  return plan.spec.warm === true || plan.spec.type === 'warm';
}

/** `plan.status`, created empty when absent. */
export function planStatus(plan: Plan): PlanStatus {
  plan.status ??= {};
  return plan.status;
}

/** `plan.status.migration`, created empty when absent. */
export function migrationStatus(plan: Plan): MigrationStatus {
  const status = planStatus(plan);
  status.migration ??= {};
  return status.migration;
}
