/** KubeVirt's VMI controller event and condition reasons, as exported next to its expectations. */

/** A pod for a VMI failed to be created (event and condition). */
export const FailedCreatePodReason = 'FailedCreate';
/** A pod for a VMI was created (event). */
export const SuccessfulCreatePodReason = 'SuccessfulCreate';
/** A pod for a VMI failed to be deleted (event and condition). */
export const FailedDeletePodReason = 'FailedDelete';
/** A pod for a VMI was deleted (event). */
export const SuccessfulDeletePodReason = 'SuccessfulDelete';
/** Handing the pod over from the controller to virt-handler failed. */
export const FailedHandOverPodReason = 'FailedHandOver';
/** The pod was handed over from the controller to virt-handler. */
export const SuccessfulHandOverPodReason = 'SuccessfulHandOver';
/** Creating the backend storage PVC failed. */
export const FailedBackendStorageCreateReason = 'FailedBackendStorageCreate';
/** Probing the backend storage PVC failed. */
export const FailedBackendStorageProbeReason = 'FailedBackendStorageProbe';
/** The backend storage PVC is pending. */
export const BackendStorageNotReadyReason = 'BackendStorageNotReady';
/** A generated DataVolume reached the Failed phase. */
export const FailedDataVolumeImportReason = 'FailedDataVolumeImport';
/** A pod was created without Guaranteed resources. */
export const FailedGuaranteePodResourcesReason = 'FailedGuaranteeResources';
/** Cluster topology hints could not be collected for a VMI (upstream spelling kept). */
export const FailedGatherhingClusterTopologyHints = 'FailedGatherhingClusterTopologyHints';
/** A PVC for a volume was not found. */
export const FailedPvcNotFoundReason = 'FailedPvcNotFound';
/** A migration attempt succeeded. */
export const SuccessfulMigrationReason = 'SuccessfulMigration';
/** A migration attempt failed. */
export const FailedMigrationReason = 'FailedMigration';
/** Aborting a migration succeeded. */
export const SuccessfulAbortMigrationReason = 'SuccessfulAbortMigration';
/** Aborting a migration failed. */
export const FailedAbortMigrationReason = 'FailedAbortMigration';
/** A migration target pod became unschedulable (lower-case first letter, as upstream). */
export const MigrationTargetPodUnschedulable = 'migrationTargetPodUnschedulable';
/** A utility volume migration is pending (newer KubeVirt). */
export const UtilityVolumeMigrationPendingReason = 'UtilityVolumeMigrationPending';
/** A hotplugged volume has no attachment pod. */
export const MissingAttachmentPodReason = 'MissingAttachmentPod';
/** A PVC is not ready to be hotplugged. */
export const PVCNotReadyReason = 'PVCNotReady';
/** A hotplug-specific failure during sync. */
export const FailedHotplugSyncReason = 'FailedHotplugSync';
/** Pulling a containerDisk image failed. */
export const ErrImagePullReason = 'ErrImagePull';
/** Pulling a containerDisk image failed and kubelet is backing off. */
export const ImagePullBackOffReason = 'ImagePullBackOff';
/** No node supports the CPU model or features of a host-model VMI being migrated. */
export const NoSuitableNodesForHostModelMigration = 'NoSuitableNodesForHostModelMigration';
/** Patching a pod failed during sync. */
export const FailedPodPatchReason = 'FailedPodPatch';
/** A migration failed and virt-controller is backing off before retrying. */
export const MigrationBackoffReason = 'MigrationBackoff';
