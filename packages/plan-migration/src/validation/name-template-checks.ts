//! Plan admission of name templates: each template rendered with the data its call site passes, and refused when it does not render.

import { errorMessage } from '@ctrlkit/core';
import type { InventoryVM } from '../adapter.js';
import type { Plan, PlanVM } from '../api/plan.js';
import { refString } from '../api/ref.js';
import { ConditionType, Reason } from '../condition-types.js';
import { type Conditions, conditionsOf } from '../conditions.js';
import {
  mappedNICs,
  type NameTemplateField,
  nameTemplateOf,
  networkNameTemplateData,
  pvcNameTemplateData,
  type TemplateVM,
  volumeNameTemplateData,
} from '../name-template/data.js';
import {
  isValidNetworkNameTemplate,
  isValidPVCNameTemplate,
  isValidVolumeNameTemplate,
  renderInterfaceName,
  renderPVCName,
} from '../name-templates.js';
import { findVM } from '../vm-status.js';
import { critical } from './ready.js';
import type { ValidationInput } from './validation-input.js';

const MESSAGES: Record<NameTemplateField, string> = {
  pvcNameTemplate: 'PVC name template is invalid.',
  volumeNameTemplate: 'Volume name template is invalid.',
  networkNameTemplate: 'Network name template is invalid.',
};

const SAMPLE_CHECKS: Record<NameTemplateField, (template: string) => void> = {
  pvcNameTemplate: isValidPVCNameTemplate,
  volumeNameTemplate: isValidVolumeNameTemplate,
  networkNameTemplate: isValidNetworkNameTemplate,
};

/** What one VM's templates are rendered with: the VM as the call site sees it. */
interface VMContext {
  plan: Plan;
  vm: TemplateVM & PlanVM;
  inventoryVM: InventoryVM | undefined;
  input: ValidationInput;
}

/** Runs `render` for each data; the first error, with the disk or interface it came from. */
function firstError(renders: Array<[string, () => unknown]>): string | undefined {
  for (const [where, render] of renders) {
    try {
      render();
    } catch (error) {
      return `${where}: ${errorMessage(error)}`;
    }
  }
  return undefined;
}

/** The renders of `field`'s template for `vm`: what the KubeVirt destination renders, one per disk or NIC. */
function renders(c: VMContext, field: NameTemplateField, template: string) {
  const disks = Math.max(1, c.inventoryVM?.disks.length ?? 0);
  const indexes = [...Array(disks).keys()];
  if (field === 'pvcNameTemplate') {
    const sourceType = c.input.references.source?.spec.type;
    return indexes.map((diskIndex): [string, () => unknown] => [
      `disk ${diskIndex}`,
      () =>
        renderPVCName(
          template,
          pvcNameTemplateData({
            plan: c.plan,
            vm: c.vm,
            diskIndex,
            ...(c.inventoryVM && { inventoryVM: c.inventoryVM }),
            ...(sourceType && { sourceType }),
          }),
        ),
    ]);
  }
  if (field === 'volumeNameTemplate') {
    return indexes.map((i): [string, () => unknown] => [
      `volume ${i}`,
      () => renderInterfaceName(template, volumeNameTemplateData('test-pvc', i)),
    ]);
  }
  const pairs = c.input.references.networkMap?.spec.map ?? [];
  const nics = c.inventoryVM === undefined ? [] : mappedNICs(pairs, c.inventoryVM);
  return nics.map(({ destination }, i): [string, () => unknown] => [
    `interface ${i}`,
    () => renderInterfaceName(template, networkNameTemplateData(destination, i)),
  ]);
}

/** The items of one VM: each of its templates that does not render, with the field, the VM and the error. */
async function vmItems(
  input: ValidationInput,
  vm: PlanVM,
): Promise<Map<NameTemplateField, string>> {
  const { plan } = input;
  const status = findVM(plan.status?.migration, vm);
  const inventoryVM = await input.source?.inventory.findVM(vm);
  const c: VMContext = {
    plan,
    vm: { ...vm, ...(status?.newName && { newName: status.newName }) },
    inventoryVM,
    input,
  };
  const out = new Map<NameTemplateField, string>();
  for (const field of Object.keys(MESSAGES) as NameTemplateField[]) {
    const found = nameTemplateOf(plan, vm, field);
    if (found === undefined) continue;
    const error = firstError(renders(c, field, found.template));
    if (error !== undefined)
      out.set(field, `${found.path} (VM${refString(vm).trimEnd()}) ${error}`);
  }
  return out;
}

/**
 * The plan's and each VM's name templates: the plan's rendered on Forklift's sample data,
 * and (not while the plan is Executing; Succeeded VMs skipped) the template each VM uses (its own, else the plan's) rendered with the data the
 * KubeVirt destination renders it with (built by the same functions: the VM's name, target
 * name and id, each of its disks, each of its mapped NICs). A template that does not
 * render gives one Critical `NotValid` condition: the message of each kind of template
 * that failed, and as items each field with the VM and the error
 * (`spec.vms[1].pvcNameTemplate (VM id:vm-1 name:'') disk 0: template: function "nope" not defined`).
 */
export async function validateNameTemplates(
  cnd: Conditions,
  input: ValidationInput,
): Promise<void> {
  const { plan } = input;
  const items = new Map<NameTemplateField, string[]>();
  const add = (field: NameTemplateField, item: string) =>
    items.set(field, [...(items.get(field) ?? []), item]);
  for (const field of Object.keys(MESSAGES) as NameTemplateField[]) {
    const template = plan.spec[field] ?? '';
    try {
      SAMPLE_CHECKS[field](template);
    } catch (error) {
      add(field, `spec.${field}: ${errorMessage(error)}`);
    }
  }
  const sampleFailed = new Set(items.keys());
  // As the other VM checks: none while Executing, none for a VM that Succeeded or has no ref.
  const vms = cnd.hasCondition(ConditionType.Executing)
    ? []
    : plan.spec.vms.filter((vm) => {
        const status = findVM(plan.status?.migration, vm);
        const succeeded =
          status !== undefined &&
          conditionsOf(status, input.clock).hasCondition(ConditionType.Succeeded);
        return (vm.id || vm.name) && !succeeded;
      });
  for (const vm of vms) {
    for (const [field, item] of await vmItems(input, vm)) {
      // The plan's template already refused on the sample: one item says so.
      if (!(sampleFailed.has(field) && item.startsWith(`spec.${field} `))) add(field, item);
    }
  }
  if (items.size === 0) return;
  const fields = (Object.keys(MESSAGES) as NameTemplateField[]).filter((f) => items.has(f));
  cnd.setCondition({
    ...critical(Reason.NotValid, fields.map((f) => MESSAGES[f]).join(' ')),
    items: fields.flatMap((f) => items.get(f) ?? []),
  });
}
