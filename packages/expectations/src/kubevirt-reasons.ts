/**
 * `@ctrlkit/expectations/kubevirt-reasons`: KubeVirt's VMI controller event and condition
 * reasons, the constants its `pkg/controller` exports next to its expectations, with their
 * upstream string values. A controller that records Events or conditions under KubeVirt's
 * names takes them from here; expectations themselves do not need them.
 *
 * A first program:
 * ```ts
 * import { SuccessfulCreatePodReason } from '@ctrlkit/expectations/kubevirt-reasons';
 *
 * recorder.event(vmi, 'Normal', SuccessfulCreatePodReason, `Created virtual machine pod ${pod.metadata.name}`);
 * ```
 *
 * @packageDocumentation
 */

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
