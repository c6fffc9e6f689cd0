//! The per-VM checks of a plan: reference, inventory, names, duplicates, mappings, destination, warm prerequisites.

import type { InventoryVM } from '../adapter.js';
import type { PlanVM } from '../api/plan.js';
import { isWarm, planStatus } from '../api/plan.js';
import { refString } from '../api/ref.js';
import { ConditionType, Reason } from '../condition-types.js';
import { Category, conditionsOf, True } from '../conditions.js';
import { isDNS1123Subdomain } from '../name-templates.js';
import { findVM } from '../vm-status.js';
import type { SourceAccess, ValidationInput } from './validation-input.js';
import { type Resolution, resolveVMRefs } from './vm-refs.js';

/** A condition listing the VMs it holds for. */
interface ItemsCondition {
  type: string;
  status: typeof True;
  reason: string;
  category: string;
  message: string;
  items: string[];
}

function item(type: string, reason: string, category: string, message: string): ItemsCondition {
  return { type, status: True, reason, category, message, items: [] };
}

/** The conditions the VM checks fill, in the order they are set. */
function vmConditions() {
  return {
    notFound: item(ConditionType.VMNotFound, Reason.NotFound, Category.Critical, 'VM not found.'),
    ambiguous: item(
      ConditionType.VMNotUnique,
      Reason.Ambiguous,
      Category.Critical,
      'VM reference is ambiguous.',
    ),
    notUnique: item(
      ConditionType.DuplicateVM,
      Reason.NotUnique,
      Category.Critical,
      'Duplicate (source) VM.',
    ),
    alreadyExists: item(
      ConditionType.VMAlreadyExists,
      Reason.NotUnique,
      Category.Critical,
      'Target VM already exists.',
    ),
    nameNotValid: item(
      ConditionType.NameNotValid,
      Reason.NotValid,
      Category.Warn,
      'Target VM name does not comply with DNS1123 RFC, will be automatically changed.',
    ),
    unmappedNetwork: item(
      ConditionType.VMNetworksNotMapped,
      Reason.NotValid,
      Category.Critical,
      'VM has unmapped networks.',
    ),
    unmappedStorage: item(
      ConditionType.VMStorageNotMapped,
      Reason.NotValid,
      Category.Critical,
      'VM has unmapped storage.',
    ),
    missingCbt: item(
      ConditionType.VMMissingChangedBlockTracking,
      Reason.MissingChangedBlockTracking,
      Category.Critical,
      'Changed Block Tracking (CBT) has not been enabled on some VM. This feature is a prerequisite for VM warm migration.',
    ),
    hasSnapshots: item(
      ConditionType.VMHasSnapshots,
      Reason.NotValid,
      Category.Critical,
      'VM has pre-existing snapshots which are incompatible with warm migration.',
    ),
    targetNameInvalid: item(Reason.NotValid, '', Category.Critical, 'TargetName is invalid.'),
    targetNameNotUnique: item(
      ConditionType.DuplicateVM,
      Reason.NotUnique,
      Category.Critical,
      'Duplicate targetName.',
    ),
  };
}

type VMConditions = ReturnType<typeof vmConditions>;

/** What the checks of one VM compare it with: the ids and target names seen before it. */
interface Seen {
  ids: Set<string>;
  targetNames: Set<string>;
}

/**
 * Resolves each VM reference of the spec (a name-only one gets its id, from the status or
 * the source inventory: see {@link resolveVMRefs}), then checks each VM (not while the plan
 * is Executing; Succeeded VMs skipped), and sets one condition per kind of problem listing
 * the VMs that have it: `VMNotFound`, `VMNotUnique` (a name matching several VMs),
 * `DuplicateVM` (the same resolved id twice)... Stops, as upstream with a nil provider, when
 * the source is not usable.
 */
export async function validateVMs(input: ValidationInput): Promise<void> {
  const { plan, clock, source } = input;
  const cnd = conditionsOf(planStatus(plan), clock);
  const vms = plan.spec.vms ?? [];
  const resolutions = await resolveVMRefs(vms, plan.status?.migration, source?.inventory);
  if (cnd.hasCondition(ConditionType.Executing)) return;
  const conditions = vmConditions();
  const seen: Seen = { ids: new Set(), targetNames: new Set() };
  for (const [i, vm] of vms.entries()) {
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
    const resolution = resolutions[i];
    if (source === undefined || resolution === undefined) return;
    await validateVM(input, source, vm, resolution, conditions, seen);
  }
  for (const c of Object.values(conditions)) {
    if (c.items.length > 0) cnd.setCondition(c);
  }
}

/** The checks of one VM, each adding the VM to the condition it fails. */
async function validateVM(
  input: ValidationInput,
  source: SourceAccess,
  vm: PlanVM,
  resolution: Resolution,
  conditions: VMConditions,
  seen: Seen,
): Promise<void> {
  const { plan } = input;
  if (resolution.kind !== 'found') {
    (resolution.kind === 'notFound' ? conditions.notFound : conditions.ambiguous).items.push(
      refString(vm),
    );
    return;
  }
  const found = resolution.vm;
  const ref = refString(vm);
  validateNames(vm, found, ref, conditions, seen);
  if (input.references.networkMap !== undefined && !(await source.validator.networksMapped(vm))) {
    conditions.unmappedNetwork.items.push(ref);
  }
  if (input.references.storageMap !== undefined && !(await source.validator.storageMapped(vm))) {
    conditions.unmappedStorage.items.push(ref);
  }
  const vmName = vm.targetName || vm.name || found.name;
  if (
    (await input.destinationVMExists(plan.spec.targetNamespace, vmName)) &&
    findVM(plan.status?.migration, vm) === undefined
  ) {
    conditions.alreadyExists.items.push(ref);
  }
  if (isWarm(plan)) validateWarm(input, found, ref, conditions);
}

/** The VM's (target) name is a DNS-1123 subdomain; its id and target name are unique. */
function validateNames(
  vm: PlanVM,
  found: InventoryVM,
  ref: string,
  conditions: VMConditions,
  seen: Seen,
): void {
  if (!vm.targetName) {
    if (!isDNS1123Subdomain(vm.name ?? found.name)) conditions.nameNotValid.items.push(ref);
  } else if (!isDNS1123Subdomain(vm.targetName)) {
    conditions.targetNameInvalid.items.push(ref);
  }
  const id = found.id;
  if (seen.ids.has(id)) conditions.notUnique.items.push(ref);
  else seen.ids.add(id);
  if (vm.targetName) {
    if (seen.targetNames.has(vm.targetName)) conditions.targetNameNotUnique.items.push(ref);
    else seen.targetNames.add(vm.targetName);
  }
}

/** Warm migration needs Changed Block Tracking and (on vSphere) no pre-existing snapshots. */
function validateWarm(
  input: ValidationInput,
  found: InventoryVM,
  ref: string,
  conditions: VMConditions,
): void {
  if (found.changedBlockTracking === false) conditions.missingCbt.items.push(ref);
  if (found.hasSnapshots === true && input.references.source?.spec.type === 'vsphere') {
    conditions.hasSnapshots.items.push(ref);
  }
}
