import { expect, it } from 'vitest';
import * as reasons from './vmi-controller-reasons.js';

it('exports the VMI controller reasons with their upstream string values', () => {
  expect({ ...reasons }).toEqual({
    FailedCreatePodReason: 'FailedCreate',
    SuccessfulCreatePodReason: 'SuccessfulCreate',
    FailedDeletePodReason: 'FailedDelete',
    SuccessfulDeletePodReason: 'SuccessfulDelete',
    FailedHandOverPodReason: 'FailedHandOver',
    SuccessfulHandOverPodReason: 'SuccessfulHandOver',
    FailedBackendStorageCreateReason: 'FailedBackendStorageCreate',
    FailedBackendStorageProbeReason: 'FailedBackendStorageProbe',
    BackendStorageNotReadyReason: 'BackendStorageNotReady',
    FailedDataVolumeImportReason: 'FailedDataVolumeImport',
    FailedGuaranteePodResourcesReason: 'FailedGuaranteeResources',
    FailedGatherhingClusterTopologyHints: 'FailedGatherhingClusterTopologyHints',
    FailedPvcNotFoundReason: 'FailedPvcNotFound',
    SuccessfulMigrationReason: 'SuccessfulMigration',
    FailedMigrationReason: 'FailedMigration',
    SuccessfulAbortMigrationReason: 'SuccessfulAbortMigration',
    FailedAbortMigrationReason: 'FailedAbortMigration',
    MigrationTargetPodUnschedulable: 'migrationTargetPodUnschedulable',
    UtilityVolumeMigrationPendingReason: 'UtilityVolumeMigrationPending',
    MissingAttachmentPodReason: 'MissingAttachmentPod',
    PVCNotReadyReason: 'PVCNotReady',
    FailedHotplugSyncReason: 'FailedHotplugSync',
    ErrImagePullReason: 'ErrImagePull',
    ImagePullBackOffReason: 'ImagePullBackOff',
    NoSuitableNodesForHostModelMigration: 'NoSuitableNodesForHostModelMigration',
    FailedPodPatchReason: 'FailedPodPatch',
    MigrationBackoffReason: 'MigrationBackoff',
  });
});
