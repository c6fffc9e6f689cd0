//! Resolving a Plan's VM references (by id or by name) against the source inventory, as Forklift's validation does.

import type { Inventory, InventoryVM } from '../adapter.js';
import type { MigrationStatus, PlanVM } from '../api/plan.js';

/** How a VM reference resolved: the inventory VM, or why not. */
export type Resolution =
  | { kind: 'found'; vm: InventoryVM }
  | { kind: 'notFound' }
  | { kind: 'ambiguous' };

/**
 * The id the plan's status already stores for a name-only reference: a status entry with
 * that name and a (resolved) id. Keeps a VM's id stable once its migration began.
 */
export function storedId(status: MigrationStatus | undefined, vm: PlanVM): string | undefined {
  if (vm.id || !vm.name) return undefined;
  const matches = (status?.vms ?? []).filter((s) => s.name === vm.name && s.id);
  return matches.length === 1 ? matches[0]?.id : undefined;
}

/**
 * Resolves `vm` against `inventory`: by id when the reference has one, else by name (one
 * match; several are ambiguous). Callers write the resolved id into the reference.
 */
export async function resolveVM(inventory: Inventory, vm: PlanVM): Promise<Resolution> {
  if (vm.id) {
    const found = await inventory.findVM({ id: vm.id });
    return found === undefined ? { kind: 'notFound' } : { kind: 'found', vm: found };
  }
  const matches = (await inventory.listVMs()).filter((v) => v.name === vm.name);
  if (matches.length === 0) return { kind: 'notFound' };
  if (matches.length > 1) return { kind: 'ambiguous' };
  return { kind: 'found', vm: matches[0] as InventoryVM };
}

/**
 * Fills in the id of every name-only reference of `vms` (in memory; the spec is never
 * written): from the plan's status when it stores one, else from `inventory` when the
 * name matches exactly one VM. Returns the resolution of each reference by index
 * (undefined for a reference without id and name, or when `inventory` is absent).
 */
export async function resolveVMRefs(
  vms: PlanVM[],
  status: MigrationStatus | undefined,
  inventory: Inventory | undefined,
): Promise<Array<Resolution | undefined>> {
  const out: Array<Resolution | undefined> = [];
  for (const vm of vms) {
    const stored = storedId(status, vm);
    if (stored !== undefined) vm.id = stored;
    if ((!vm.id && !vm.name) || inventory === undefined) {
      out.push(undefined);
      continue;
    }
    const resolution = await resolveVM(inventory, vm);
    if (resolution.kind === 'found') vm.id = resolution.vm.id;
    out.push(resolution);
  }
  return out;
}
