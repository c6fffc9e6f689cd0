//! Staged validation of a Plan: providers, namespace, maps, VMs and hooks (Forklift's plan/validation.go).

import type { Clock } from '@ctrlkit/core';
import type { Inventory, Validator } from './adapter.js';
import type { Condition } from './api/condition.js';
import type { Hook } from './api/hook.js';
import type { NetworkMap, StorageMap } from './api/mapping.js';
import type { Plan } from './api/plan.js';
import { isWarm, planStatus } from './api/plan.js';
import type { Provider } from './api/provider.js';
import { refString } from './api/ref.js';
import { ConditionType, Reason } from './condition-types.js';
import { Category, conditionsOf, type NewCondition, READY, True } from './conditions.js';
import {
  isDNS1123Subdomain,
  isValidNetworkNameTemplate,
  isValidPVCNameTemplate,
  isValidVolumeNameTemplate,
} from './name-templates.js';
import { findVM } from './vm-status.js';

/** The objects a Plan references, resolved by the caller (from informer caches). */
export interface PlanReferences {
  source?: Provider;
  destination?: Provider;
  networkMap?: NetworkMap;
  storageMap?: StorageMap;
  /** A Hook by namespace and name. */
  hook(namespace: string, name: string): Hook | undefined;
}

/** The source side the VM checks ask; absent when the source is not usable yet. */
export interface SourceAccess {
  inventory: Inventory;
  validator: Validator;
}

/** What {@link validatePlan} needs. */
export interface ValidationInput {
  plan: Plan;
  references: PlanReferences;
  /** The source's inventory and validator; undefined makes VM checks stop (as a nil provider upstream). */
  source?: SourceAccess;
  /** Whether a VM named `name` already exists in `namespace` on the destination. */
  destinationVMExists(namespace: string, name: string): Promise<boolean>;
  clock: Clock;
}

/** Whether an object's status has `Ready` True. */
export function hasReady(obj: { status?: { conditions?: Condition[] } } | undefined): boolean {
  return (obj?.status?.conditions ?? []).some((c) => c.type === READY && c.status === True);
}

const critical = (type: string, message: string, reason?: string): NewCondition => ({
  type,
  status: True,
  category: Category.Critical,
  message,
  ...(reason !== undefined && { reason }),
});

/**
 * Validates the plan, setting conditions on `plan.status.conditions` (call it between
 * `beginStagingConditions` and `endStagingConditions`). Order and early stops as upstream:
 * providers (stop when the source is not ready), namespace, maps (stop on any blocker),
 * migration type, VMs (not while Executing; Succeeded VMs skipped), hooks, name templates.
 */
export async function validatePlan(input: ValidationInput): Promise<void> {
  const { plan, references: refs, clock } = input;
  plan.status ??= {};
  const cnd = conditionsOf(plan.status, clock);

  // Providers.
  const src = plan.spec.provider.source;
  if (!src?.name) {
    cnd.setCondition(
      critical(
        ConditionType.SourceProviderNotValid,
        'The source provider is not valid.',
        Reason.NotSet,
      ),
    );
  } else if (refs.source === undefined) {
    cnd.setCondition(
      critical(
        ConditionType.SourceProviderNotValid,
        'The source provider is not valid.',
        Reason.NotFound,
      ),
    );
  } else if (!hasReady(refs.source)) {
    cnd.setCondition(
      critical(
        ConditionType.SourceProviderNotReady,
        'The source provider does not have the Ready condition.',
      ),
    );
  }
  const dst = plan.spec.provider.destination;
  if (!dst?.name) {
    cnd.setCondition(
      critical(
        ConditionType.DestinationProviderNotValid,
        'The destination provider is not valid.',
        Reason.NotSet,
      ),
    );
  } else if (refs.destination === undefined) {
    cnd.setCondition(
      critical(
        ConditionType.DestinationProviderNotValid,
        'The destination provider is not valid.',
        Reason.NotFound,
      ),
    );
  } else {
    if (!hasReady(refs.destination)) {
      cnd.setCondition(
        critical(
          ConditionType.DestinationProviderNotReady,
          'The destination provider does not have the Ready condition.',
        ),
      );
    }
    if (refs.destination.spec.type !== 'openshift') {
      cnd.setCondition(
        critical(
          ConditionType.DestinationProviderNotValid,
          'The destination provider is not valid.',
          Reason.TypeNotValid,
        ),
      );
    }
  }
  if (cnd.hasCondition(ConditionType.SourceProviderNotReady)) return;

  // Target namespace.
  const target = plan.spec.targetNamespace ?? '';
  if (target === '') {
    cnd.setCondition(
      critical(ConditionType.NamespaceNotValid, 'Target namespace is not valid.', Reason.NotSet),
    );
  } else if (!isDNS1123Subdomain(target)) {
    cnd.setCondition(
      critical(ConditionType.NamespaceNotValid, 'Target namespace is not valid.', Reason.NotValid),
    );
  }

  // Maps.
  if (!plan.spec.map?.network?.name) {
    cnd.setCondition(
      critical(ConditionType.NetRefNotValid, 'Map.Network is not valid.', Reason.NotSet),
    );
  } else if (refs.networkMap === undefined) {
    cnd.setCondition(
      critical(ConditionType.NetRefNotValid, 'Map.Network is not valid.', Reason.NotFound),
    );
  } else if (!hasReady(refs.networkMap)) {
    cnd.setCondition(
      critical(ConditionType.NetMapNotReady, 'Map.Network does not have Ready condition.'),
    );
  }
  if (plan.spec.type !== 'conversion') {
    if (!plan.spec.map?.storage?.name) {
      cnd.setCondition(
        critical(ConditionType.DsRefNotValid, 'Map.Storage is not valid.', Reason.NotSet),
      );
    } else if (refs.storageMap === undefined) {
      cnd.setCondition(
        critical(ConditionType.DsRefNotValid, 'Map.Storage is not valid.', Reason.NotFound),
      );
    } else if (!hasReady(refs.storageMap)) {
      cnd.setCondition(
        critical(ConditionType.DsMapNotReady, 'Map.Storage does not have Ready condition.'),
      );
    }
  }
  if (cnd.hasBlockerCondition()) return;

  // Migration type.
  const source = input.source;
  if (isWarm(plan) && source !== undefined && !source.validator.warmMigration()) {
    cnd.setCondition(
      critical(
        ConditionType.WarmMigrationNotReady,
        'Warm migration from the source provider is not supported.',
        Reason.NotSupported,
      ),
    );
  }
  if (source !== undefined && !source.validator.migrationType()) {
    cnd.setCondition(
      critical(
        ConditionType.MigrationTypeNotValid,
        'The migration type is not supported by the source provider.',
        Reason.NotSupported,
      ),
    );
  }

  await validateVMs(input);
  validateHooks(input);

  for (const [check, message] of [
    [
      () => isValidVolumeNameTemplate(plan.spec.volumeNameTemplate ?? ''),
      'Volume name template is invalid.',
    ],
    [
      () => isValidNetworkNameTemplate(plan.spec.networkNameTemplate ?? ''),
      'Network name template is invalid.',
    ],
    [
      () => isValidPVCNameTemplate(plan.spec.pvcNameTemplate ?? ''),
      'PVC name template is invalid.',
    ],
  ] as const) {
    try {
      check();
    } catch {
      cnd.setCondition(critical(Reason.NotValid, message));
    }
  }
}

async function validateVMs(input: ValidationInput): Promise<void> {
  const { plan, clock, source } = input;
  const cnd = conditionsOf(planStatus(plan), clock);
  if (cnd.hasCondition(ConditionType.Executing)) return;
  const item = (type: string, reason: string, category: string, message: string) => ({
    type,
    status: True,
    reason,
    category,
    message,
    items: [] as string[],
  });
  const notFound = item(
    ConditionType.VMNotFound,
    Reason.NotFound,
    Category.Critical,
    'VM not found.',
  );
  const notUnique = item(
    ConditionType.DuplicateVM,
    Reason.NotUnique,
    Category.Critical,
    'Duplicate (source) VM.',
  );
  const nameNotValid = item(
    ConditionType.NameNotValid,
    Reason.NotValid,
    Category.Warn,
    'Target VM name does not comply with DNS1123 RFC, will be automatically changed.',
  );
  const alreadyExists = item(
    ConditionType.VMAlreadyExists,
    Reason.NotUnique,
    Category.Critical,
    'Target VM already exists.',
  );
  const unmappedNetwork = item(
    ConditionType.VMNetworksNotMapped,
    Reason.NotValid,
    Category.Critical,
    'VM has unmapped networks.',
  );
  const unmappedStorage = item(
    ConditionType.VMStorageNotMapped,
    Reason.NotValid,
    Category.Critical,
    'VM has unmapped storage.',
  );
  const missingCbt = item(
    ConditionType.VMMissingChangedBlockTracking,
    Reason.MissingChangedBlockTracking,
    Category.Critical,
    'Changed Block Tracking (CBT) has not been enabled on some VM. This feature is a prerequisite for VM warm migration.',
  );
  const hasSnapshots = item(
    ConditionType.VMHasSnapshots,
    Reason.NotValid,
    Category.Critical,
    'VM has pre-existing snapshots which are incompatible with warm migration.',
  );
  const targetNameInvalid = item(Reason.NotValid, '', Category.Critical, 'TargetName is invalid.');
  const targetNameNotUnique = item(
    ConditionType.DuplicateVM,
    Reason.NotUnique,
    Category.Critical,
    'Duplicate targetName.',
  );
  const ids = new Set<string>();
  const targetNames = new Set<string>();
  for (const vm of plan.spec.vms ?? []) {
    const status = findVM(plan.status?.migration, vm);
    if (status !== undefined && conditionsOf(status, clock).hasCondition(ConditionType.Succeeded))
      continue;
    if (!vm.id && !vm.name) {
      cnd.setCondition({
        type: ConditionType.VMRefNotValid,
        status: True,
        reason: Reason.NotSet,
        category: Category.Critical,
        message: 'Either `ID` or `Name` required.',
      });
      continue;
    }
    if (source === undefined) return;
    const ref = refString(vm);
    const found = await source.inventory.findVM(vm);
    if (found === undefined) {
      notFound.items.push(ref);
      continue;
    }
    if (!vm.targetName) {
      if (!isDNS1123Subdomain(vm.name ?? found.name)) nameNotValid.items.push(ref);
    } else if (!isDNS1123Subdomain(vm.targetName)) {
      targetNameInvalid.items.push(ref);
    }
    const id = vm.id ?? '';
    if (ids.has(id)) notUnique.items.push(ref);
    else ids.add(id);
    if (vm.targetName) {
      if (targetNames.has(vm.targetName)) targetNameNotUnique.items.push(ref);
      else targetNames.add(vm.targetName);
    }
    if (input.references.networkMap !== undefined && !(await source.validator.networksMapped(vm))) {
      unmappedNetwork.items.push(ref);
    }
    if (input.references.storageMap !== undefined && !(await source.validator.storageMapped(vm))) {
      unmappedStorage.items.push(ref);
    }
    const vmName = vm.targetName || vm.name || found.name;
    if (
      (await input.destinationVMExists(plan.spec.targetNamespace, vmName)) &&
      findVM(plan.status?.migration, vm) === undefined
    ) {
      alreadyExists.items.push(ref);
    }
    if (isWarm(plan)) {
      if (found.changedBlockTracking === false) missingCbt.items.push(ref);
      if (found.hasSnapshots === true && input.references.source?.spec.type === 'vsphere') {
        hasSnapshots.items.push(ref);
      }
    }
  }
  for (const c of [
    notFound,
    notUnique,
    alreadyExists,
    nameNotValid,
    unmappedNetwork,
    unmappedStorage,
    missingCbt,
    hasSnapshots,
    targetNameInvalid,
    targetNameNotUnique,
  ]) {
    if (c.items.length > 0) cnd.setCondition(c);
  }
}

function validateHooks(input: ValidationInput): void {
  const { plan, clock, references } = input;
  const cnd = conditionsOf(planStatus(plan), clock);
  const item = (type: string, reason: string, message: string) => ({
    type,
    status: True,
    reason,
    category: Category.Critical,
    message,
    items: [] as string[],
  });
  const notSet = item(
    ConditionType.HookNotValid,
    Reason.NotSet,
    'Hook specified by: `namespace` and `name`.',
  );
  const notFound = item(ConditionType.HookNotValid, Reason.NotFound, 'Hook not found.');
  const notReady = item(
    ConditionType.HookNotReady,
    Reason.NotFound,
    'Hook does not have `Ready` condition.',
  );
  const stepNotValid = item(
    ConditionType.HookStepNotValid,
    Reason.NotValid,
    'Hook step not valid.',
  );
  for (const vm of plan.spec.vms ?? []) {
    for (const ref of vm.hooks ?? []) {
      if (ref.step !== 'PreHook' && ref.step !== 'PostHook') {
        stepNotValid.items.push(`VM: ${refString(vm)} step: ${ref.step}`);
      }
      if (!ref.hook?.name) {
        notSet.items.push(`VM: ${refString(vm)}`);
        continue;
      }
      const namespace = ref.hook.namespace || plan.metadata.namespace || '';
      const desc = `VM: ${refString(vm)} hook: ${namespace}/${ref.hook.name}`;
      const hook = references.hook(namespace, ref.hook.name);
      if (hook === undefined) {
        notFound.items.push(desc);
        continue;
      }
      if (!hasReady(hook)) notReady.items.push(desc);
    }
  }
  for (const c of [notSet, notFound, notReady, stepNotValid])
    if (c.items.length > 0) cnd.setCondition(c);
}
