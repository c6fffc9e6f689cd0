//! A stand-in destination: disks and VMs recorded as labelled ConfigMaps in the target namespace (no KubeVirt or CDI needed).

import { isNotFound } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { DestinationClient, DestinationVM, Ensurer } from './adapter.js';
import type { Plan, Task, VMStatus } from './api/plan.js';
import type { CoreApi } from './internal/kube-api.js';
import { createNamespaceIfMissing } from './internal/namespace.js';
import {
  LABEL_PLAN_NAME,
  LABEL_PLAN_NAMESPACE,
  labelSelector,
  planVMLabels,
  withoutMigration,
} from './labels.js';

/** `disk` or `vm`: what a ConfigMap stands for. */
export const LABEL_RESOURCE = 'forklift.ctrlkit.dev/resource';

/**
 * The destination of the simulated migrations: each disk becomes a ConfigMap
 * (`resource=disk`, a DataVolume upstream) and each VM a ConfigMap (`resource=vm`, a
 * VirtualMachine upstream) that owns its disks. All carry the plan's labels, so a deleted
 * plan's orphans can be found. Lookups drop the `migration` label, so a new Migration
 * finds what an earlier one created.
 */
export class ConfigMapDestination implements DestinationClient, Ensurer {
  readonly #core: CoreApi;
  readonly #plan: Plan;
  readonly #migrationUID: string;
  /** API writes made (creates, updates, deletes), for the benchmark. */
  writes = 0;

  constructor(core: CoreApi, plan: Plan, migrationUID: string) {
    this.#core = core;
    this.#plan = plan;
    this.#migrationUID = migrationUID;
  }

  async ensureNamespace(namespace: string): Promise<void> {
    if (await createNamespaceIfMissing(this.#core, namespace)) this.writes++;
  }

  async vmExists(namespace: string, name: string): Promise<boolean> {
    try {
      const cm = await this.#core.readNamespacedConfigMap({ namespace, name });
      return cm.metadata?.labels?.[LABEL_RESOURCE] === 'vm';
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async ensureDataVolumes(vm: VMStatus, tasks: Task[]): Promise<void> {
    const existing = await this.#list(vm, 'disk');
    for (const task of tasks) {
      const name = `${this.#plan.metadata.name}-${vm.id}-${task.name}`.toLowerCase().slice(0, 253);
      if (existing.some((cm) => cm.metadata?.name === name)) continue;
      await this.#create({
        metadata: { name, labels: this.#labels(vm, 'disk') },
        data: { disk: task.name, capacityMiB: String(task.progress.total) },
      });
    }
  }

  async ensureVM(vm: VMStatus, spec: { running: boolean }): Promise<DestinationVM> {
    const ns = this.#plan.spec.targetNamespace;
    const name = vm.newName || vm.name || vm.id || '';
    let created = (await this.#list(vm, 'vm'))[0];
    if (created === undefined) {
      created = await this.#create({
        metadata: {
          name,
          labels: { ...this.#labels(vm, 'vm'), app: name, ...this.#plan.spec.targetLabels },
          ...(vm.newName &&
            vm.name && {
              annotations: { 'openshift.io/display-name': vm.name, 'original-ID': vm.id ?? '' },
            }),
        },
        data: { runStrategy: spec.running ? 'Always' : 'Halted', sourceID: vm.id ?? '' },
      });
    }
    const uid = created.metadata?.uid ?? '';
    for (const disk of await this.#list(vm, 'disk')) {
      if ((disk.metadata?.ownerReferences ?? []).some((o) => o.uid === uid)) continue;
      this.writes++;
      await this.#core.patchNamespacedConfigMap({
        namespace: ns,
        name: disk.metadata?.name ?? '',
        body: [
          {
            op: 'add',
            path: '/metadata/ownerReferences',
            value: [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid }],
          },
        ],
      });
    }
    return { name, namespace: ns, uid };
  }

  async cleanup(vm: VMStatus, options: { deleteVM: boolean }): Promise<void> {
    const vms = await this.#list(vm, 'vm');
    const vmUIDs = new Set(vms.map((v) => v.metadata?.uid));
    for (const disk of await this.#list(vm, 'disk')) {
      const owned = (disk.metadata?.ownerReferences ?? []).some((o) => vmUIDs.has(o.uid));
      if (owned && !options.deleteVM) continue;
      await this.#delete(disk);
    }
    if (options.deleteVM) for (const v of vms) await this.#delete(v);
  }

  async deleteOrphans(planNamespace: string, planName: string): Promise<number> {
    const list = await this.#core.listConfigMapForAllNamespaces({
      labelSelector: `${LABEL_PLAN_NAME}=${planName},${LABEL_PLAN_NAMESPACE}=${planNamespace}`,
    });
    const vmUIDs = new Set(
      list.items
        .filter((cm) => cm.metadata?.labels?.[LABEL_RESOURCE] === 'vm')
        .map((cm) => cm.metadata?.uid),
    );
    let deleted = 0;
    for (const cm of list.items) {
      if (cm.metadata?.labels?.[LABEL_RESOURCE] === 'vm') continue;
      if ((cm.metadata?.ownerReferences ?? []).some((o) => vmUIDs.has(o.uid))) continue;
      await this.#delete(cm);
      deleted++;
    }
    return deleted;
  }

  #labels(vm: VMStatus, resource: 'disk' | 'vm'): Record<string, string> {
    return {
      ...planVMLabels({ plan: this.#plan, migrationUID: this.#migrationUID, vmID: vm.id ?? '' }),
      [LABEL_RESOURCE]: resource,
    };
  }

  async #list(vm: VMStatus, resource: 'disk' | 'vm'): Promise<Wire<V1ConfigMap>[]> {
    const list = await this.#core.listNamespacedConfigMap({
      namespace: this.#plan.spec.targetNamespace,
      labelSelector: labelSelector(withoutMigration(this.#labels(vm, resource))),
    });
    return list.items.filter((cm) => cm.metadata?.deletionTimestamp === undefined);
  }

  async #create(body: Wire<V1ConfigMap>): Promise<Wire<V1ConfigMap>> {
    this.writes++;
    return this.#core.createNamespacedConfigMap({
      namespace: this.#plan.spec.targetNamespace,
      body,
    });
  }

  async #delete(cm: Wire<V1ConfigMap>): Promise<void> {
    try {
      this.writes++;
      await this.#core.deleteNamespacedConfigMap({
        namespace: cm.metadata?.namespace ?? this.#plan.spec.targetNamespace,
        name: cm.metadata?.name ?? '',
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
