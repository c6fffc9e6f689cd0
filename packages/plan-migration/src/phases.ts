//! Phase names of the per-VM pipeline and step names that group them (Forklift's api and migrator/base).

/** VM migration phases. */
export const Phase = {
  Started: 'Started',
  PreHook: 'PreHook',
  StorePowerState: 'StorePowerState',
  PowerOffSource: 'PowerOffSource',
  WaitForPowerOff: 'WaitForPowerOff',
  CreateDataVolumes: 'CreateDataVolumes',
  CopyDisks: 'CopyDisks',
  AllocateDisks: 'AllocateDisks',
  CreateGuestConversionPod: 'CreateGuestConversionPod',
  ConvertGuest: 'ConvertGuest',
  CopyDisksVirtV2V: 'CopyDisksVirtV2V',
  ConvertOpenstackSnapshot: 'ConvertOpenstackSnapshot',
  CreateVM: 'CreateVM',
  WaitForGuestReboots: 'WaitForGuestReboots',
  PostHook: 'PostHook',
  Completed: 'Completed',
  CreateInitialSnapshot: 'CreateInitialSnapshot',
  WaitForInitialSnapshot: 'WaitForInitialSnapshot',
  StoreInitialSnapshotDeltas: 'StoreInitialSnapshotDeltas',
  PreflightInspection: 'PreflightInspection',
  CopyingPaused: 'CopyingPaused',
  RemovePreviousSnapshot: 'RemovePreviousSnapshot',
  WaitForPreviousSnapshotRemoval: 'WaitForPreviousSnapshotRemoval',
  CreateSnapshot: 'CreateSnapshot',
  WaitForSnapshot: 'WaitForSnapshot',
  StoreSnapshotDeltas: 'StoreSnapshotDeltas',
  AddCheckpoint: 'AddCheckpoint',
  RemovePenultimateSnapshot: 'RemovePenultimateSnapshot',
  WaitForPenultimateSnapshotRemoval: 'WaitForPenultimateSnapshotRemoval',
  CreateFinalSnapshot: 'CreateFinalSnapshot',
  WaitForFinalSnapshot: 'WaitForFinalSnapshot',
  AddFinalCheckpoint: 'AddFinalCheckpoint',
  Finalize: 'Finalize',
  RemoveFinalSnapshot: 'RemoveFinalSnapshot',
  WaitForFinalSnapshotRemoval: 'WaitForFinalSnapshotRemoval',
} as const;
/** A VM migration phase. */
export type Phase = (typeof Phase)[keyof typeof Phase];

/** Pipeline step names (the UI's grouping of phases). */
export const StepName = {
  Initialize: 'Initialize',
  PreHook: 'PreHook',
  PostHook: 'PostHook',
  DiskAllocation: 'DiskAllocation',
  DiskTransfer: 'DiskTransfer',
  DiskTransferV2v: 'DiskTransferV2v',
  Cutover: 'Cutover',
  ImageConversion: 'ImageConversion',
  VMCreation: 'VirtualMachineCreation',
  WaitForGuestReboots: 'WaitForGuestReboots',
  PreflightInspection: 'PreflightInspection',
  WaitForSnapshotConsolidation: 'WaitForSnapshotConsolidation',
  ConvertOpenstackSnapshot: 'ConvertOpenstackSnapshot',
  Unknown: 'Unknown',
} as const;

/** Task reason once a disk transfer is done. */
export const TRANSFER_COMPLETED = 'Transfer completed.';
