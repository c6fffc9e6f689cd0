//! @ctrlkit/plan-migration: Forklift's plan controller core: Plan and Migration, staged conditions, validation and the per-VM pipeline.

export type {
  Builder,
  Client,
  ConversionStatus,
  DestinationClient,
  DestinationVM,
  DiskTransfer,
  Ensurer,
  GuestConversion,
  Inventory,
  InventoryDisk,
  InventoryNIC,
  InventoryVM,
  Migrator,
  Validator,
} from './adapter.js';
export { isGuestConversion } from './adapter.js';
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
  BaseMigrator,
  type BaseMigratorOptions,
  COLD_ITINERARY,
  type Flag,
  nextPhase,
  WARM_ITINERARY,
} from './base-migrator.js';
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
export { ConfigMapDestination, LABEL_RESOURCE } from './configmap-destination.js';
export { HookController, type HookControllerOptions } from './controllers/hook-controller.js';
export { IMAGE_REFERENCE_PATTERN, isBase64, validateHook } from './controllers/hook-validation.js';
export type { ResourceControllerOptions } from './controllers/internal/resources.js';
export {
  type MapControllerOptions,
  NetworkMapController,
  STORAGE_CLASSES,
  StorageMapController,
} from './controllers/map-controller.js';
export {
  type StorageClassLookup,
  validateNetworkMap,
  validateStorageMap,
} from './controllers/map-validation.js';
export {
  MIGRATION_VALIDATION_CONDITIONS,
  MigrationController,
  type MigrationControllerOptions,
  type MigrationValidationInput,
  validateMigration,
} from './controllers/migration-controller.js';
export {
  DEFAULT_PROVIDER_INSPECTORS,
  hostInspector,
  inspectProvider,
  ProviderController,
  type ProviderControllerOptions,
  type ProviderInspector,
  ProviderPhase,
  simulatedInspector,
} from './controllers/provider-controller.js';
export {
  isHost,
  type ProviderLookup,
  type ProviderPair,
  type ProviderPairResult,
  validateProviderPair,
} from './controllers/provider-pair.js';
export {
  API_VERSION,
  CRD_MANIFEST_PATH,
  forkliftCrds,
  GROUP,
  PLURALS,
  REGENERATE_CRDS_COMMAND,
  VERSION,
} from './crds.js';
export {
  Itinerary,
  type ItineraryStep,
  type ItineraryView,
  type Predicate,
  StepNotFoundError,
} from './itinerary.js';
export {
  type ConversionPodInput,
  conversionLabels,
  conversionPod,
  DEFAULT_VIRT_V2V_IMAGE,
  nfsShare,
  OVA_STORE_MOUNT_PATH,
  OVA_STORE_SIZE,
  ovaStorePV,
  ovaStorePVC,
  parseDiskTransfers,
} from './kubevirt/conversion-pod.js';
export {
  CDI_GROUP,
  CDI_VERSION,
  DATA_VOLUME_PHASES,
  DATA_VOLUMES,
  type DataVolume,
  DataVolumeSpecSchema,
  DataVolumeStatusSchema,
  dataVolumeCrd,
  KUBEVIRT_GROUP,
  KUBEVIRT_VERSION,
  kubevirtCrds,
  RUN_STRATEGIES,
  type RunStrategy,
  SNAPSHOT_GROUP,
  SNAPSHOT_VERSION,
  VIRTUAL_MACHINES,
  type VirtualMachine,
  VirtualMachineSpecSchema,
  VirtualMachineStatusSchema,
  VOLUME_SNAPSHOT_CLASSES,
  VOLUME_SNAPSHOTS,
  type VolumeSnapshot,
  type VolumeSnapshotClass,
  VolumeSnapshotSpecSchema,
  VolumeSnapshotStatusSchema,
  virtualMachineCrd,
  volumeSnapshotClassCrd,
  volumeSnapshotCrd,
} from './kubevirt/crds.js';
export { type DiskStorage, diskStorage } from './kubevirt/disk-storage.js';
export {
  HOOK_MOUNT_PATH,
  HOOK_RETRY_LIMIT_EXCEEDED,
  JobHookRunner,
  type JobHookRunnerOptions,
} from './kubevirt/job-hook-runner.js';
export {
  KubeVirtDestination,
  type KubeVirtDestinationOptions,
} from './kubevirt/kubevirt-destination.js';
export {
  ANN_BIND_IMMEDIATE,
  ANN_DELETE_AFTER_COMPLETION,
  ANN_DISK_INDEX,
  ANN_DISK_SOURCE,
  ANN_DISPLAY_NAME,
  ANN_ORIGINAL_ID,
  ANN_TRANSFER_NETWORK,
  APP_VIRT_V2V,
  LABEL_APP,
  LABEL_HOOK,
  LABEL_IS_DV,
  LABEL_KUBEVIRT_RESOURCE,
  LABEL_STEP,
  OVA_PV_LABEL,
  OVA_PVC_LABEL,
  RESOURCE_HOOK_CONFIG,
  RESOURCE_VM_CONFIG,
  vmLabels,
} from './kubevirt/labels.js';
export {
  COMPUTE_CONTAINER,
  ISTIO_PROXY_CONTAINER,
  isPodDownOrGoingDown,
  isPodReady,
  podIsDown,
} from './kubevirt/pod-ready.js';
export { diskPVCs, pvcSelector } from './kubevirt/pvcs.js';
export { determineRunStrategy } from './kubevirt/run-strategy.js';
export { VirtualMachineControllerRefManager } from './kubevirt/vm-controller-ref-manager.js';
export {
  volumeSnapshotClassInformer,
  volumeSnapshotInformer,
} from './kubevirt/volume-snapshot-informers.js';
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
export { toDNS1123 } from './migration-runner/vm-name.js';
export {
  activeSnapshot,
  type HookResult,
  type HookRunner,
  MigrationRunner,
  type MigrationRunnerContext,
  type PhaseTransition,
} from './migration-runner.js';
export {
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidNetworkNameTemplate,
  isValidPVCNameTemplate,
  isValidTargetName,
  isValidTemplate,
  isValidVolumeNameTemplate,
  NameTemplateError,
} from './name-templates.js';
export { isValidUUID } from './ova/ids.js';
export {
  inspectOvaProvider,
  type OvaProviderCheckOptions,
  type OvaProviderInspection,
} from './ova/inspect-provider.js';
export {
  applianceInventory,
  DEFAULT_OVA_CATALOG_PATH,
  DEFAULT_OVA_RESCAN_AFTER_MS,
  type OvaCatalog,
  type OvaDisk,
  OvaInventory,
  type OvaInventoryOptions,
  type OvaNetwork,
  type OvaProblem,
} from './ova/inventory.js';
export { OvaError, type OvaErrorReason } from './ova/ova-error.js';
export { OvaSource, type OvaSourceOptions, V2V_SOURCE_OVA } from './ova/ova-source.js';
export {
  type ExportSource,
  type OvfDisk,
  type OvfEnvelope,
  type OvfFile,
  type OvfItem,
  type OvfNetwork,
  type OvfVirtualSystem,
  parseOvf,
  ResourceType,
  unitBytes,
} from './ova/ovf-parser.js';
export {
  type CatalogFile,
  DEFAULT_OVA_MIN_FILE_AGE_MS,
  listCatalog,
  OVA_MAX_DEPTH,
  OVF_MAX_DEPTH,
  readAppliance,
} from './ova/scan.js';
export { readFirstTarEntry, type TarEntry } from './ova/tar.js';
export { Phase, StepName, TRANSFER_COMPLETED } from './phases.js';
export {
  DEFAULT_PLAN_WORKERS,
  type Destination,
  type DestinationContext,
  PlanController,
  type PlanControllerOptions,
  type SourceAdapter,
} from './plan-controller.js';
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
export {
  DEFAULT_BLOCKER_GRACE_PERIOD_MS,
  DEFAULT_HOOK_RETRY,
  DEFAULT_PRECOPY_INTERVAL_MS,
  DEFAULT_WAIT_FOR_FINAL_SNAPSHOT_CONSOLIDATION,
  DEFAULT_WINDOWS_WAIT_FOR_REBOOT,
  MAX_VM_INFLIGHT,
  type MigrationSettings,
  migrationSettings,
} from './settings.js';
export {
  DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S,
  DEFAULT_SIMULATED_POWER_OFF_MS,
  DEFAULT_SIMULATED_SNAPSHOT_MS,
  SIMULATED_DELTA_FRACTION,
  SimulatedSource,
  type SimulatedSourceOptions,
} from './simulated-source.js';
export { hasReady } from './validation/ready.js';
export {
  type PlanReferences,
  type SourceAccess,
  type ValidationInput,
  validatePlan,
} from './validation.js';
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
