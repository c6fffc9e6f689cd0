//! What a hook's Job reads: the VM as the inventory describes it (`workload.yml`) and the Plan's spec (`plan.yml`), in the shape Forklift writes them.

import type { InventoryVM } from '../adapter.js';
import type { PlanSpec } from '../api/plan.js';

/**
 * Forklift's `workload.yml` of `vm`: the inventory's Workload (`selfLink` and the VM with
 * every detail), as Forklift's hook runner writes it with gopkg.in/yaml.v2, which knows no
 * JSON tags: keys are the Go field names in lower case and embedded structs are nested under
 * their type's name, so a playbook reads `workload.vm.ipaddress`, `workload.vm.cpucount`,
 * `workload.vm.vm1.vm0.name` or `workload.vm.nics`. Fields the inventory does not know have
 * their zero value, as in Go. `selfLink` is the inventory path of the workload,
 * `providers/<type>/<provider uid>/workloads/<vm id>`.
 */
export function forkliftWorkload(vm: InventoryVM, selfLink: string): Record<string, unknown> {
  const disks = vm.disks.map((d) => ({
    base: { id: d.id, name: d.fileName ?? d.id },
    filepath: d.fileName ?? '',
    capacity: d.capacityMiB * 1024 * 1024,
    capacityallocationunits: 'byte',
    diskid: d.id,
    fileref: d.fileName ?? '',
    format: d.format ?? '',
    populatedsize: 0,
  }));
  const networks = vm.networks.map((id) => ({ base: { id, name: id }, description: '' }));
  return {
    selflink: selfLink,
    vm: {
      vm1: {
        vm0: {
          id: vm.id,
          variant: '',
          path: vm.ovaPath ?? '',
          revision: 0,
          name: vm.name,
          selflink: '',
        },
        revisionvalidated: 0,
        networks: [],
        disks: [],
        concerns: [],
      },
      ovapath: vm.ovaPath ?? '',
      revisionvalidated: 0,
      policyversion: 0,
      uuid: '',
      firmware: '',
      cpuaffinity: [],
      cpuhotaddenabled: false,
      cpuhotremoveenabled: false,
      memoryhotaddenabled: false,
      faulttoleranceenabled: false,
      cpucount: vm.cpuCount ?? 0,
      corespersocket: 0,
      memorymb: vm.memoryMiB ?? 0,
      memoryunits: '',
      cpuunits: '',
      balloonedmemory: 0,
      ipaddress: '',
      numanodeaffinity: [],
      storageused: 0,
      changetrackingenabled: vm.changedBlockTracking ?? false,
      devices: [],
      nics: (vm.nics ?? []).map((n) => ({
        name: n.name,
        mac: n.mac,
        network: n.network,
        config: [],
      })),
      disks,
      networks,
      product: {},
    },
  };
}

/** An object reference (`core.ObjectReference`) as yaml.v2 writes it: every field, lower case. */
function objectReference(ref: { name?: string; namespace?: string } | undefined) {
  return {
    kind: '',
    namespace: ref?.namespace ?? '',
    name: ref?.name ?? '',
    uid: '',
    apiversion: '',
    resourceversion: '',
    fieldpath: '',
  };
}

/**
 * Forklift's `plan.yml`: the Plan's spec as its hook runner writes it with yaml.v2 (keys in
 * lower case, `targetnamespace`; each VM's id and name nested under `ref`, the embedded
 * `ref.Ref`; references as full `ObjectReference`s). Fields past those Forklift documents
 * are kept with their keys in lower case.
 */
export function forkliftPlanSpec(spec: PlanSpec): Record<string, unknown> {
  const {
    provider,
    map,
    vms,
    targetNamespace,
    description,
    warm,
    transferNetwork,
    archived,
    ...rest
  } = spec as PlanSpec & Record<string, unknown>;
  return {
    description: description ?? '',
    targetnamespace: targetNamespace ?? '',
    provider: {
      source: objectReference(provider?.source),
      destination: objectReference(provider?.destination),
    },
    map: { network: objectReference(map?.network), storage: objectReference(map?.storage) },
    vms: (vms ?? []).map(({ id, name, hooks, ...vmRest }) => ({
      ref: { id: id ?? '', name: name ?? '', namespace: '', type: '' },
      hooks: (hooks ?? []).map((h) => ({ step: h.step, hook: objectReference(h.hook) })),
      ...lowerKeys(vmRest),
    })),
    warm: warm ?? false,
    transfernetwork: transferNetwork === undefined ? null : objectReference(transferNetwork),
    archived: archived ?? false,
    ...lowerKeys(rest),
  };
}

/** `value` with every object key in lower case, as yaml.v2 names untagged Go fields. */
function lowerKeys(value: unknown): Record<string, unknown> {
  const lower = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(lower);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), lower(x)]));
  };
  return lower(value) as Record<string, unknown>;
}
