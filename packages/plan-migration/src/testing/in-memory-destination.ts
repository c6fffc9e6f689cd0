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
    for (const o of this.objects.values())
      if (o.kind === 'DataVolume' && o.vmID === vm.id) o.owner = name;
    return { name, namespace: this.namespace, uid: `uid-${name}` };
  }

  async cleanup(vm: VMStatus, options: { deleteVM: boolean }): Promise<void> {
    for (const [key, o] of this.objects) {
      if (o.vmID !== vm.id) continue;
      if (o.kind === 'VirtualMachine' && !options.deleteVM) continue;
      if (o.kind === 'DataVolume' && o.owner !== undefined && !options.deleteVM) continue;
      this.objects.delete(key);
      this.writes++;
    }
  }

  async deleteOrphans(): Promise<number> {
    let n = 0;
    for (const [key, o] of this.objects) {
      if (o.kind !== 'DataVolume' || o.owner !== undefined) continue;
      this.objects.delete(key);
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
    const key = `${o.kind}/${o.namespace}/${o.name}`;
    if (this.objects.has(key)) return;
    this.objects.set(key, o);
    this.writes++;
  }
}
