//! The destination name of a VM: an explicit targetName checked, or a DNS-1123 name made from the source's.

import type { VMStatus } from '../api/plan.js';
import { isDNS1123Subdomain } from '../name-template/dns1123.js';
import type { MigrationRunnerContext } from './context.js';

/** Sets `newName`; returns a problem when an explicit targetName cannot be used. */
export async function setNewName(
  c: MigrationRunnerContext,
  vm: VMStatus,
): Promise<string | undefined> {
  const ns = c.plan.spec.targetNamespace;
  if (vm.targetName) {
    if (!isDNS1123Subdomain(vm.targetName)) {
      return `VM name '${vm.targetName}' does not meet DNS1123 protocol requirements`;
    }
    if (await c.destination.vmExists(ns, vm.targetName)) {
      return `VM name '${vm.targetName}' already exists in the target namespace '${ns}'`;
    }
    vm.newName = vm.targetName;
    return undefined;
  }
  // A VM listed by id gets its name from the inventory (the destination names the VM after it).
  vm.name ??= (await c.inventory.findVM(vm))?.name;
  const name = vm.name ?? '';
  if (!isDNS1123Subdomain(name)) {
    let candidate =
      toDNS1123(name) || `vm-${(vm.id ?? '').toLowerCase().replace(/[^a-z0-9-]/g, '')}`;
    if (await c.destination.vmExists(ns, candidate))
      candidate = `${candidate.slice(0, 58)}-${randomSuffix(vm.id ?? name)}`;
    vm.newName = candidate;
  }
  return undefined;
}

/** Lower-cases, turns runs of invalid characters into `-`, trims to 63 and strips `-` and `.` at both ends. */
export function toDNS1123(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .slice(0, 63)
    .replace(/^[-.]+|[-.]+$/g, '');
}

function randomSuffix(seed: string): string {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h.toString(36).slice(0, 4).padStart(4, '0');
}
