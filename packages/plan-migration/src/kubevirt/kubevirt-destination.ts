//! The KubeVirt destination: CDI DataVolumes, the per-VM Secret and ConfigMap, the conversion pod and the VirtualMachine (Forklift's plan/kubevirt.go).

import { InvalidArgumentError, noopLogger } from '@ctrlkit/core';
import { toClient } from '@ctrlkit/runtime/client';
import type {
  ConversionStatus,
  DestinationClient,
  DestinationVM,
  DiskTransfer,
  Ensurer,
  GuestConversion,
} from '../adapter.js';
import type { Task, VMStatus } from '../api/plan.js';
import { batchApi, coreApi, customApi } from '../internal/kube-api.js';
import { createNamespaceIfMissing } from '../internal/namespace.js';
import { cleanupVM, deleteOrphans } from './destination/cleanup.js';
import type { DestinationContext } from './destination/context.js';
import { dataVolumeTransfers, ensureDataVolumes } from './destination/data-volumes.js';
import { conversionStatus, ensureConversionPod } from './destination/guest-conversion.js';
import { ensureVirtualMachine, virtualMachineExists } from './destination/virtual-machine.js';
import { ensureSecretAndConfigMap } from './destination/vm-config.js';
import type { KubeVirtDestinationOptions } from './kubevirt-destination-options.js';
import type { determineRunStrategy } from './run-strategy.js';

/**
 * Creates on the destination what Forklift creates for a VM: the target namespace, the VM's
 * credential Secret (`isDV=true`) and ConfigMap, one CDI DataVolume per disk, the guest
 * conversion pod (and an OVA source's NFS PV/PVC), and the KubeVirt VirtualMachine, which
 * becomes the owner of the disk PVCs. Everything carries the VM's labels (`migration`,
 * `plan`, `plan-name`, `plan-namespace`, `vmID`, `resource=vm-config`); every ensure looks
 * up by labels first, so a re-run creates only what is missing. Lookups for deletion drop
 * the `migration` label, so a new Migration finds what an earlier one created.
 */
export class KubeVirtDestination implements DestinationClient, Ensurer, GuestConversion {
  readonly #c: DestinationContext;
  /** API writes made (creates, patches, deletes). */
  writes = 0;

  constructor(options: KubeVirtDestinationOptions) {
    const source = options?.client ?? options?.kubeConfig;
    if (source === undefined)
      throw new InvalidArgumentError('client', 'is required (the runtime client, or kubeConfig)');
    const client = toClient(source);
    if (options.plan?.metadata === undefined) throw new InvalidArgumentError('plan', 'is required');
    if (typeof options.migrationUID !== 'string') {
      throw new InvalidArgumentError('migrationUID', 'must be a string');
    }
    this.#c = {
      options,
      plan: options.plan,
      ns: options.plan.spec.targetNamespace,
      core: coreApi(client),
      batch: batchApi(client),
      custom: customApi(client),
      log: options.logger ?? noopLogger,
      wrote: () => {
        this.writes++;
      },
    };
  }

  async ensureNamespace(namespace: string): Promise<void> {
    if (await createNamespaceIfMissing(this.#c.core, namespace)) this.writes++;
  }

  async vmExists(namespace: string, name: string): Promise<boolean> {
    return virtualMachineExists(this.#c, namespace, name);
  }

  /** Ensures the VM's Secret and ConfigMap and one importing DataVolume per task. */
  async ensureDataVolumes(vm: VMStatus, tasks: Task[]): Promise<void> {
    const builder = this.#c.options.builder;
    const dataVolumeSource = builder?.dataVolumeSource?.bind(builder);
    if (dataVolumeSource === undefined) {
      throw new Error(
        `VM ${vm.id}: the source builder does not describe CDI DataVolume sources (dataVolumeSource)`,
      );
    }
    const refs = await ensureSecretAndConfigMap(this.#c, vm);
    await ensureDataVolumes(this.#c, vm, tasks, (task) => dataVolumeSource(vm, task.name, refs));
  }

  /** Ensures the VM's Secret and ConfigMap and one blank DataVolume per task, for virt-v2v to fill. */
  async allocateDisks(vm: VMStatus, tasks: Task[]): Promise<void> {
    await ensureSecretAndConfigMap(this.#c, vm);
    await ensureDataVolumes(this.#c, vm, tasks, async () => ({ blank: {} }));
  }

  async diskTransfers(vm: VMStatus): Promise<DiskTransfer[]> {
    return dataVolumeTransfers(this.#c, vm);
  }

  async ensureConversionPod(vm: VMStatus): Promise<boolean> {
    return ensureConversionPod(this.#c, vm);
  }

  async conversionStatus(vm: VMStatus): Promise<ConversionStatus> {
    return conversionStatus(this.#c, vm);
  }

  /**
   * Ensures the VirtualMachine (found by the VM's labels, created if absent: name `newName`
   * else the source name, run strategy by {@link determineRunStrategy}, template label
   * `app`=name plus the plan's `targetLabels`, display-name and original-ID annotations when
   * renamed), makes it the owner of each disk PVC, then deletes the DataVolumes, which are no
   * longer needed. `spec.running` is not read: the run strategy follows the same rule from
   * the VM's status and the plan, and can also be `Halted` for an `auto` VM whose source was off.
   */
  async ensureVM(vm: VMStatus, _spec: { running: boolean }): Promise<DestinationVM> {
    return ensureVirtualMachine(this.#c, vm);
  }

  /**
   * Deletes what was created for the VM: the conversion pod (unless the VM succeeded: its
   * logs stay), Secrets, ConfigMaps, hook Jobs and their ConfigMaps, the OVA store claim; with
   * `deleteVM` also the VirtualMachine (foreground) and the DataVolumes.
   */
  async cleanup(vm: VMStatus, options: { deleteVM: boolean }): Promise<void> {
    await cleanupVM(this.#c, vm, options);
  }

  /**
   * Deletes the DataVolumes, PVCs, Pods, Secrets, ConfigMaps, Jobs and PVs a deleted plan left
   * in any namespace (found by `plan-name` and `plan-namespace`), except those a
   * VirtualMachine owns.
   */
  async deleteOrphans(planNamespace: string, planName: string): Promise<number> {
    return deleteOrphans(this.#c, planNamespace, planName);
  }
}
