//! A destination that keeps what it "creates" in a map: for unit tests of the pipeline.

import type { DestinationClient, DestinationVM, Ensurer } from '../adapter.js';
import type { Task, VMStatus } from '../api/plan.js';

/** An object the in-memory destination holds. */
export interface InMemoryObject {
  kind: 'Namespace' | 'DataVolume' | 'VirtualMachine';
  namespace: string;
  name: string;
  vmID: string;
  /** Name of the VirtualMachine owning a DataVolume. */
  owner?: string;
  running?: boolean;
}

/** A {@link DestinationClient} and {@link Ensurer} over a map, counting its writes. */
export class InMemoryDestination implements DestinationClient, Ensurer {
  readonly objects = new Map<string, InMemoryObject>();
  /** Create and delete calls. */
  writes = 0;
  // The keys of `objects` by VM id, so that a VM's objects are found without scanning every
  // VM's (a scan per VM made a 1,000-VM plan's run quadratic in the simulator).
  readonly #byVM = new Map<string, Set<string>>();

  constructor(
    /** The target namespace objects go to. */
    readonly namespace: string,
  ) {}

  async ensureNamespace(namespace: string): Promise<void> {
    this.#put({ kind: 'Namespace', namespace: '', name: namespace, vmID: '' });
  }

  async vmExists(namespace: string, name: string): Promise<boolean> {
    return this.objects.has(`VirtualMachine/${namespace}/${name}`);
  }

  async ensureDataVolumes(vm: VMStatus, tasks: Task[]): Promise<void> {
    for (const t of tasks) {
      this.#put({
        kind: 'DataVolume',
        namespace: this.namespace,
        name: `${vm.id}-${t.name}`,
        vmID: vm.id ?? '',
      });
    }
  }

  async ensureVM(vm: VMStatus, spec: { running: boolean }): Promise<DestinationVM> {
    const name = vm.newName || vm.name || vm.id || '';
    this.#put({
      kind: 'VirtualMachine',
      namespace: this.namespace,
      name,
      vmID: vm.id ?? '',
      running: spec.running,
    });
    for (const o of this.#ofVM(vm.id)) if (o.kind === 'DataVolume') o.owner = name;
    return { name, namespace: this.namespace, uid: `uid-${name}` };
  }

  async cleanup(vm: VMStatus, options: { deleteVM: boolean }): Promise<void> {
    for (const o of this.#ofVM(vm.id)) {
      if (o.kind === 'VirtualMachine' && !options.deleteVM) continue;
      if (o.kind === 'DataVolume' && o.owner !== undefined && !options.deleteVM) continue;
      this.#delete(o);
      this.writes++;
    }
  }

  async deleteOrphans(): Promise<number> {
    let n = 0;
    for (const o of [...this.objects.values()]) {
      if (o.kind !== 'DataVolume' || o.owner !== undefined) continue;
      this.#delete(o);
      n++;
    }
    this.writes += n;
    return n;
  }

  /** Objects of a kind. */
  list(kind: InMemoryObject['kind']): InMemoryObject[] {
    return [...this.objects.values()].filter((o) => o.kind === kind);
  }

  #put(o: InMemoryObject): void {
    const key = keyOf(o);
    if (this.objects.has(key)) return;
    this.objects.set(key, o);
    const keys = this.#byVM.get(o.vmID) ?? new Set<string>();
    keys.add(key);
    this.#byVM.set(o.vmID, keys);
    this.writes++;
  }

  #delete(o: InMemoryObject): void {
    const key = keyOf(o);
    this.objects.delete(key);
    this.#byVM.get(o.vmID)?.delete(key);
  }

  /** The objects of VM `id` (a copy: the caller may delete them). */
  #ofVM(id: string | undefined): InMemoryObject[] {
    const keys = (id !== undefined && this.#byVM.get(id)) || [];
    return [...keys].flatMap((key) => this.objects.get(key) ?? []);
  }
}

const keyOf = (o: InMemoryObject) => `${o.kind}/${o.namespace}/${o.name}`;
