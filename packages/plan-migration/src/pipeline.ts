/**
 * `@ctrlkit/plan-migration/pipeline`: what the {@link reconcilePlan | PlanController} runs on
 * each reconcile, as pure steps over a Plan and its adapters (Forklift's
 * `pkg/controller/plan`). Use them to test or customise the pipeline; a plan controller
 * needs only the root.
 *
 * - **Reconcile** (`controller.go`): {@link reconcilePlan} (skip rules, postpone, staged
 *   validation with {@link validatePlan}, archive, `Ready`, execution), {@link executePlan}
 *   (snapshots, pending Migrations, cancellation); watches: {@link planPredicate},
 *   {@link requestForMigration}, {@link plansReferencing}; requeue delays
 *   ({@link POLL_REQ}, …).
 * - **One pass over the VMs** (`migration.go`): {@link MigrationRunner} (`begin`, per-VM
 *   phases, `end`, `cancel`, `archive`), {@link nextVM} and {@link markSchedulerQueuedVMs}
 *   (the scheduler, at most `maxInFlight` VMs per provider).
 * - **Itineraries** (`lib/itinerary`, `migrator/base`): {@link Itinerary},
 *   {@link BaseMigrator}, {@link COLD_ITINERARY}, {@link WARM_ITINERARY}, {@link nextPhase}.
 * - **VM status** (`api/plan/{vm,timed}.go`): {@link reflectPipeline},
 *   {@link reflectTasks}, {@link findStep}, {@link markStarted}, {@link markCompleted}, …
 * - **Names**: {@link isValidTargetName}, {@link isValidTemplate}, {@link toDNS1123},
 *   {@link NameTemplateError}; name templates rendered as their call sites render them
 *   ({@link renderPVCName}, {@link renderInterfaceName}) with the data those pass
 *   ({@link pvcNameTemplateData}, {@link volumeNameTemplateData}, {@link networkNameTemplateData}).
 *
 * `PlanHarness` in `@ctrlkit/plan-migration/testing` drives these reconcile by reconcile on a
 * fake clock, without an API server.
 *
 * A first program:
 * ```ts
 * import { COLD_ITINERARY, Itinerary } from '@ctrlkit/plan-migration/pipeline';
 *
 * const itinerary = new Itinerary('', COLD_ITINERARY, (flag) => flag === 'HasPreHook');
 * console.log(itinerary.list().map((step) => step.name)); // the phases of a cold VM with a PreHook
 * ```
 *
 * @packageDocumentation
 */

export {
  BaseMigrator,
  type BaseMigratorOptions,
  COLD_ITINERARY,
  type Flag,
  nextPhase,
  WARM_ITINERARY,
} from './base-migrator.js';
export {
  Itinerary,
  type ItineraryStep,
  type ItineraryView,
  type Predicate,
  StepNotFoundError,
} from './itinerary.js';
export type { MigrationRunnerContext, PhaseTransition } from './migration-runner/context.js';
export { toDNS1123 } from './migration-runner/vm-name.js';
export { activeSnapshot, MigrationRunner } from './migration-runner.js';
export {
  networkNameTemplateData,
  type PVCNameTemplateInput,
  pvcNameTemplateData,
  volumeNameTemplateData,
} from './name-template/data.js';
export type { TemplateData } from './name-template/execute.js';
export {
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidNetworkNameTemplate,
  isValidPVCNameTemplate,
  isValidTargetName,
  isValidTemplate,
  isValidVolumeNameTemplate,
  NameTemplateError,
  renderInterfaceName,
  renderPVCName,
} from './name-templates.js';
export {
  activeMigration,
  executePlan,
  failExecutingMigrationOnBlocker,
  matchSnapshot,
  newSnapshot,
  type PlanExecutionContext,
  pendingMigrations,
  snapshotRef,
} from './plan-execution.js';
export {
  type Generational,
  notReconciled,
  type PlanReconcileInput,
  type PlanReconcileResult,
  reconcilePlan,
} from './plan-reconcile.js';
export { FAST_REQ, LONG_REQ, NO_REQ, POLL_REQ, SLOW_REQ } from './requeue.js';
export {
  isExecuting,
  markSchedulerQueuedVMs,
  nextVM,
  schedulerQueuedMessage,
} from './scheduler.js';
export { hasReady } from './validation/ready.js';
export type {
  PlanReferences,
  SourceAccess,
  ValidationInput,
} from './validation/validation-input.js';
export { validatePlan } from './validation.js';
export {
  addError,
  findStep,
  findTask,
  findVM,
  markCompleted,
  markedCompleted,
  markedStarted,
  markReset,
  markStarted,
  markStartedStepsCompleted,
  reflectPipeline,
  reflectTasks,
  running,
  StepPhase,
  type Timed,
} from './vm-status.js';
export {
  migrationPredicate,
  planPredicate,
  plansReferencing,
  type ReferenceKind,
  referencePredicate,
  requestForMigration,
} from './watches.js';
