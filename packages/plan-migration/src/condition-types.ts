//! Condition types and reasons of the Plan and Migration (Forklift's plan controller constants).

/** Plan condition types. */
export const ConditionType = {
  Ready: 'Ready',
  SourceProviderNotValid: 'SourceProviderNotValid',
  DestinationProviderNotValid: 'DestinationProviderNotValid',
  SourceProviderNotReady: 'SourceProviderNotReady',
  DestinationProviderNotReady: 'DestinationProviderNotReady',
  WarmMigrationNotReady: 'WarmMigrationNotReady',
  MigrationTypeNotValid: 'MigrationTypeNotValid',
  NamespaceNotValid: 'NamespaceNotValid',
  TransferNetNotValid: 'TransferNetworkNotValid',
  NetRefNotValid: 'NetworkMapRefNotValid',
  NetMapNotReady: 'NetworkMapNotReady',
  DsMapNotReady: 'StorageMapNotReady',
  DsRefNotValid: 'StorageRefNotValid',
  VMRefNotValid: 'VMRefNotValid',
  VMNotFound: 'VMNotFound',
  VMAlreadyExists: 'VMAlreadyExists',
  VMNetworksNotMapped: 'VMNetworksNotMapped',
  VMStorageNotMapped: 'VMStorageNotMapped',
  VMStorageNotSupported: 'VMStorageNotSupported',
  VMMultiplePodNetworkMappings: 'VMMultiplePodNetworkMappings',
  VMMissingGuestIPs: 'VMMissingGuestIPs',
  VMMissingChangedBlockTracking: 'VMMissingChangedBlockTracking',
  VMHasSnapshots: 'VMHasSnapshots',
  VMPowerStateUnsupported: 'VMPowerStateUnsupported',
  VMMigrationTypeUnsupported: 'VMMigrationTypeUnsupported',
  HostNotReady: 'HostNotReady',
  DuplicateVM: 'DuplicateVM',
  NameNotValid: 'TargetNameNotValid',
  HookNotValid: 'HookNotValid',
  HookNotReady: 'HookNotReady',
  HookStepNotValid: 'HookStepNotValid',
  InvalidDiskSizes: 'InvalidDiskSizes',
  MacConflicts: 'MacConflicts',
  Executing: 'Executing',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  Canceled: 'Canceled',
  Deleted: 'Deleted',
  Paused: 'Paused',
  Pending: 'Pending',
  Archived: 'Archived',
  ValidatingVDDK: 'ValidatingVDDK',
  PlanNotValid: 'PlanNotValid',
  PlanNotReady: 'PlanNotReady',
  Running: 'Running',
  VMNotUnique: 'VMNotUnique',
} as const;

/** Condition reasons. */
export const Reason = {
  Started: 'Started',
  NotSet: 'NotSet',
  NotFound: 'NotFound',
  NotUnique: 'NotUnique',
  NotSupported: 'NotSupported',
  Ambiguous: 'Ambiguous',
  NotValid: 'NotValid',
  Modified: 'Modified',
  UserRequested: 'UserRequested',
  InMaintenanceMode: 'InMaintenanceMode',
  TypeNotValid: 'TypeNotValid',
  Deleted: 'Deleted',
  MissingGuestInfo: 'MissingGuestInformation',
  MissingChangedBlockTracking: 'MissingChangedBlockTracking',
} as const;

/** Provider condition types (Forklift's provider controller), and those of the OVA catalog check. */
export const ProviderConditionType = {
  Ready: 'Ready',
  ConnectionTestSucceeded: 'ConnectionTestSucceeded',
  ConnectionTestFailed: 'ConnectionTestFailed',
  InventoryCreated: 'InventoryCreated',
  /** ctrlkit: catalog files that cannot be read, or are not a tar or OVF (malformed XML, bad numbers or units). */
  ApplianceMalformed: 'ApplianceMalformed',
  /** ctrlkit: OVF descriptors with `${property}` placeholders that have no value. */
  AppliancePropertyUnresolved: 'AppliancePropertyUnresolved',
  /** ctrlkit: `.ova` archives with no `*.ovf` descriptor. */
  ApplianceDescriptorNotFound: 'ApplianceDescriptorNotFound',
} as const;

/** Provider condition reasons (Forklift's provider controller). */
export const ProviderReason = {
  Tested: 'Tested',
  Completed: 'Completed',
  Malformed: 'Malformed',
  NotSet: 'NotSet',
  NotFound: 'NotFound',
} as const;
