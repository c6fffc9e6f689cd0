/**
 * `@ctrlkit/plan-migration/kubevirt`: the KubeVirt destination, what Forklift creates in the
 * destination cluster (`plan/kubevirt.go`, `plan/hook.go`).
 *
 * - {@link KubeVirtDestination}: DataVolumes, Secrets and ConfigMaps, the virt-v2v
 *   conversion pod, the VirtualMachine, cleanup and orphans; a `Destination` for the
 *   PlanController.
 * - {@link JobHookRunner}: PreHook/PostHook as Jobs; a `HookRunner`.
 * - CRDs for clusters without KubeVirt, CDI or the snapshot controller:
 *   {@link kubevirtCrds} ({@link virtualMachineCrd}, {@link dataVolumeCrd}, …) and their
 *   types ({@link VirtualMachine}, {@link DataVolume}, …).
 * - Helpers from the seed: {@link determineRunStrategy}, {@link isPodReady},
 *   {@link diskPVCs}, {@link VirtualMachineControllerRefManager},
 *   {@link volumeSnapshotInformer}; the labels and annotations it writes ({@link vmLabels},
 *   `LABEL_*`, `ANN_*`).
 *
 * A first program:
 * ```ts
 * import { PlanController } from '@ctrlkit/plan-migration';
 * import { JobHookRunner, KubeVirtDestination } from '@ctrlkit/plan-migration/kubevirt';
 *
 * const controller = new PlanController({
 *   kubeConfig,
 *   sources,
 *   destination: (context) => new KubeVirtDestination(context),
 *   hookRunner: new JobHookRunner({ kubeConfig }),
 * });
 * ```
 *
 * @packageDocumentation
 */

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
export { KubeVirtDestination } from './kubevirt/kubevirt-destination.js';
export type { KubeVirtDestinationOptions } from './kubevirt/kubevirt-destination-options.js';
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
