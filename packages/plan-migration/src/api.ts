/**
 * `@ctrlkit/plan-migration/api`: the Forklift resources (group `forklift.ctrlkit.dev`,
 * version `v1beta1`), as `pkg/apis/forklift/v1beta1` has them. Each type comes with the
 * TypeBox schema its CRD is generated from (`Plan` and `PlanSpecSchema`, …).
 *
 * - **Resources**: {@link Plan}, {@link Migration}, {@link Provider}, {@link NetworkMap},
 *   {@link StorageMap}, {@link Hook}, and their parts ({@link PlanVM}, {@link VMStatus},
 *   {@link Step}, {@link Snapshot}, {@link Ref}, …); {@link planStatus},
 *   {@link migrationStatus}.
 * - **Conditions** (`pkg/lib/condition`): {@link Conditions} (staged conditions on a status),
 *   {@link conditionsOf}, {@link Category}, {@link True}/{@link False}; the names:
 *   {@link ConditionType}, {@link Reason}, {@link ResourceConditionType}.
 * - **Phases**: {@link Phase}, {@link StepName}.
 * - **Labels** on what a migration creates: {@link planVMLabels}, {@link labelSelector},
 *   {@link LABEL_PLAN}, {@link LABEL_MIGRATION}, {@link LABEL_VM_ID}, …
 *
 * - **API groups**: ours ({@link API_GROUPS}: `forklift.ctrlkit.dev`, the default) or
 *   Forklift's `forklift.konveyor.io`; {@link ApiGroup}, {@link apiGroupOption},
 *   {@link apiVersionOf}, and where each group's CRD manifest is ({@link CRD_MANIFEST_PATHS}).
 *
 * The CRDs built from these schemas are the root's `forkliftCrds` (`forkliftCrdsOf(group)`).
 *
 * A first program:
 * ```ts
 * import { realClock } from '@ctrlkit/core';
 * import { conditionsOf, type Plan, planStatus } from '@ctrlkit/plan-migration/api';
 *
 * function isReady(plan: Plan): boolean {
 *   return conditionsOf(planStatus(plan), realClock).hasCondition('Ready');
 * }
 * ```
 *
 * @packageDocumentation
 */

export { type Condition, ConditionSchema } from './api/condition.js';
export {
  type Hook,
  type HookSpec,
  HookSpecSchema,
  type HookStatus,
  HookStatusSchema,
} from './api/hook.js';
export {
  type MapStatus,
  MapStatusSchema,
  type NetworkMap,
  type NetworkMapSpec,
  NetworkMapSpecSchema,
  type NetworkPair,
  NetworkPairSchema,
  type StorageMap,
  type StorageMapSpec,
  StorageMapSpecSchema,
  type StoragePair,
  StoragePairSchema,
} from './api/mapping.js';
export {
  cutoverFor,
  isCanceled,
  type Migration,
  type MigrationResourceStatus,
  MigrationResourceStatusSchema,
  type MigrationSpec,
  MigrationSpecSchema,
  VMCutoverSchema,
} from './api/migration.js';
export {
  DNS1123_LABEL_PATTERN,
  DNS1123_SUBDOMAIN_PATTERN,
  ErrorSchema,
  HOOK_STEPS,
  type HookRef,
  HookRefSchema,
  isWarm,
  MIGRATION_TYPES,
  type MigrationStatus,
  MigrationStatusSchema,
  type MigrationType,
  migrationStatus,
  type PipelineError,
  type Plan,
  type PlanSpec,
  PlanSpecSchema,
  type PlanStatus,
  PlanStatusSchema,
  type PlanVM,
  PlanVMSchema,
  PrecopySchema,
  type Progress,
  ProgressSchema,
  planStatus,
  type Snapshot,
  type SnapshotRef,
  SnapshotRefSchema,
  SnapshotSchema,
  type Step,
  StepSchema,
  TARGET_POWER_STATES,
  type TargetPowerState,
  type Task,
  TaskSchema,
  type VMStatus,
  VMStatusSchema,
  type Warm,
  WarmSchema,
} from './api/plan.js';
export {
  PROVIDER_TYPES,
  type Provider,
  type ProviderSpec,
  ProviderSpecSchema,
  type ProviderStatus,
  ProviderStatusSchema,
  type ProviderType,
} from './api/provider.js';
export {
  type ObjectReference,
  ObjectReferenceSchema,
  type Ref,
  RefSchema,
  refString,
} from './api/ref.js';
export { stringEnum } from './api/string-enum.js';
export {
  ConditionType,
  Reason,
  ResourceConditionType,
} from './condition-types.js';
export {
  Category,
  Conditions,
  conditionsOf,
  type Explain,
  False,
  type NewCondition,
  READY,
  REQUEUE_CONDITIONS,
  True,
} from './conditions.js';
export {
  API_GROUPS,
  type ApiGroup,
  apiGroupOption,
  apiVersionOf,
  CRD_MANIFEST_PATHS,
} from './crds.js';
export {
  LABEL_MIGRATION,
  LABEL_PLAN,
  LABEL_PLAN_NAME,
  LABEL_PLAN_NAMESPACE,
  LABEL_VM_ID,
  labelSelector,
  type PlanLabelSource,
  planVMLabels,
  withoutMigration,
} from './labels.js';
export { Phase, StepName, TRANSFER_COMPLETED } from './phases.js';
