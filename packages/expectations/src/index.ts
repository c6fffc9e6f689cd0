/**
 * @ctrlkit/expectations: remember what a controller just created or deleted until its
 * informer cache shows it. Two styles: `ControllerExpectations` (KubeVirt, a barrier, with
 * `UIDTrackingControllerExpectations`) and `ExpectationsStore` (Grove, UID bookkeeping
 * synced from the cache). The informer adapter is `@ctrlkit/expectations/informer`; fakes
 * are in `@ctrlkit/expectations/testing`.
 */

export type { Clock, Logger, Timer } from '@ctrlkit/core';
export { InvalidArgumentError, noopLogger, realClock } from '@ctrlkit/core';
export type { Expectations } from './controllee-expectations.js';
export { ControlleeExpectations, expKeyFunc } from './controllee-expectations.js';
export type { DeletedFinalStateUnknown, KeyedObjectMeta } from './controllee-key-func.js';
export { controlleeKeyFunc, isDeletedFinalStateUnknown } from './controllee-key-func.js';
export type {
  ControllerExpectationsInterface,
  ControllerExpectationsOptions,
} from './controller-expectations.js';
export {
  BurstReplicas,
  ControllerExpectations,
  DefaultExpectationsName,
  ExpectationsTimeout,
} from './controller-expectations.js';
export type { ExpectationsErrorReason } from './expectations-error.js';
export { ExpectationsError } from './expectations-error.js';
export type { ControlleeUIDExpectations, ExpectationsStoreOptions } from './expectations-store.js';
export { ExpectationsStore } from './expectations-store.js';
export { KeyFuncError } from './key-func-error.js';
export type {
  UIDSet,
  UIDTrackingControllerExpectationsOptions,
} from './uid-tracking-controller-expectations.js';
export {
  UIDTrackingControllerExpectations,
  uidSetKeyFunc,
} from './uid-tracking-controller-expectations.js';
export {
  BackendStorageNotReadyReason,
  ErrImagePullReason,
  FailedAbortMigrationReason,
  FailedBackendStorageCreateReason,
  FailedBackendStorageProbeReason,
  FailedCreatePodReason,
  FailedDataVolumeImportReason,
  FailedDeletePodReason,
  FailedGatherhingClusterTopologyHints,
  FailedGuaranteePodResourcesReason,
  FailedHandOverPodReason,
  FailedHotplugSyncReason,
  FailedMigrationReason,
  FailedPodPatchReason,
  FailedPvcNotFoundReason,
  ImagePullBackOffReason,
  MigrationBackoffReason,
  MigrationTargetPodUnschedulable,
  MissingAttachmentPodReason,
  NoSuitableNodesForHostModelMigration,
  PVCNotReadyReason,
  SuccessfulAbortMigrationReason,
  SuccessfulCreatePodReason,
  SuccessfulDeletePodReason,
  SuccessfulHandOverPodReason,
  SuccessfulMigrationReason,
  UtilityVolumeMigrationPendingReason,
} from './vmi-controller-reasons.js';
