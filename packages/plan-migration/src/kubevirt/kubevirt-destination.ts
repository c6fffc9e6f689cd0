//! The KubeVirt destination: CDI DataVolumes, the per-VM Secret and ConfigMap, the conversion pod and the VirtualMachine (Forklift's plan/kubevirt.go).

import { InvalidArgumentError, type Logger, noopLogger } from '@ctrlkit/core';
import { isNotFound } from '@ctrlkit/runtime';
import {
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1ObjectMeta,
  type V1OwnerReference,
  type V1PersistentVolumeClaim,
} from '@kubernetes/client-node';
import type {
  Builder,
  ConversionStatus,
  DestinationClient,
  DestinationVM,
  DiskTransfer,
  Ensurer,
  GuestConversion,
  Inventory,
} from '../adapter.js';
import type { StorageMap } from '../api/mapping.js';
import type { Plan, Task, VMStatus } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import { ConditionType } from '../condition-types.js';
import { True } from '../conditions.js';
import { createNamespaceIfMissing } from '../internal/namespace.js';
import {
  LABEL_PLAN,
  LABEL_PLAN_NAME,
  LABEL_PLAN_NAMESPACE,
  LABEL_VM_ID,
  labelSelector,
  withoutMigration,
} from '../labels.js';
import { isValidTemplate } from '../name-templates.js';
import {
  conversionLabels,
  conversionPod,
  DEFAULT_VIRT_V2V_IMAGE,
  ovaStorePV,
  ovaStorePVC,
  parseDiskTransfers,
} from './conversion-pod.js';
import {
  DATA_VOLUMES,
  type DataVolume,
  KUBEVIRT_GROUP,
  KUBEVIRT_VERSION,
  VIRTUAL_MACHINES,
  type VirtualMachine,
} from './crds.js';
import { diskStorage } from './disk-storage.js';
import {
  ANN_BIND_IMMEDIATE,
  ANN_DELETE_AFTER_COMPLETION,
  ANN_DISK_INDEX,
  ANN_DISK_SOURCE,
  ANN_DISPLAY_NAME,
  ANN_ORIGINAL_ID,
  ANN_TRANSFER_NETWORK,
  LABEL_IS_DV,
  LABEL_KUBEVIRT_RESOURCE,
  OVA_PVC_LABEL,
  RESOURCE_HOOK_CONFIG,
  vmLabels,
} from './labels.js';

import { diskPVCs, pvcSelector } from './pvcs.js';
import { determineRunStrategy } from './run-strategy.js';

/** Options of {@link KubeVirtDestination}. */
export interface KubeVirtDestinationOptions {
  /** The destination cluster. Required. */
  kubeConfig: KubeConfig;
  /** The plan migrating. Required. */
  plan: Plan;
  /** The active Migration's UID (`''` when there is none, as for orphan cleanup). Required. */
  migrationUID: string;
  /** The active Migration's name, on the OVA store PV (upstream labels it by name). Default `''`. */
  migrationName?: string;
  /** The source Provider: its type decides the OVA store, its `spec.url` is the NFS share. */
  source?: Provider;
  /** The source builder: DataVolume sources and the conversion pod's environment. */
  builder?: Builder;
  /** The source inventory: the datastore of each disk, for the StorageMap. */
  inventory?: Inventory;
  /** The plan's StorageMap: each disk's storage class, access and volume mode by its datastore. */
  storageMap?: StorageMap;
  /** The virt-v2v image. Default {@link DEFAULT_VIRT_V2V_IMAGE}. */
  virtV2vImage?: string;
  /** The destination is the cluster the controller runs in. Default true. */
  destinationIsHost?: boolean;
  /** Reads the conversion pod's metrics (`http://<podIP>:2112/metrics`). Default: `fetch`. */
  fetchMetrics?: (url: string) => Promise<string>;
  logger?: Logger;
}

const API_VERSION = `${KUBEVIRT_GROUP}/${KUBEVIRT_VERSION}`;
const DV_API_VERSION = `${DATA_VOLUMES.group}/${DATA_VOLUMES.version}`;
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

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
  readonly #o: KubeVirtDestinationOptions;
  readonly #plan: Plan;
  readonly #ns: string;
  readonly #core: CoreV1Api;
  readonly #batch: BatchV1Api;
  readonly #custom: CustomObjectsApi;
  readonly #log: Logger;
  /** API writes made (creates, patches, deletes). */
  writes = 0;

  constructor(options: KubeVirtDestinationOptions) {
    if (options?.kubeConfig === undefined)
      throw new InvalidArgumentError('kubeConfig', 'is required');
    if (options.plan?.metadata === undefined) throw new InvalidArgumentError('plan', 'is required');
    if (typeof options.migrationUID !== 'string') {
      throw new InvalidArgumentError('migrationUID', 'must be a string');
    }
    this.#o = options;
    this.#plan = options.plan;
    this.#ns = options.plan.spec.targetNamespace;
    this.#core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.#batch = options.kubeConfig.makeApiClient(BatchV1Api);
    this.#custom = options.kubeConfig.makeApiClient(CustomObjectsApi);
    this.#log = options.logger ?? noopLogger;
  }

  async ensureNamespace(namespace: string): Promise<void> {
    if (await createNamespaceIfMissing(this.#core, namespace)) this.writes++;
  }

  async vmExists(namespace: string, name: string): Promise<boolean> {
    try {
      await this.#custom.getNamespacedCustomObject({ ...this.#vmPath(namespace), name });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Ensures the VM's Secret and ConfigMap and one importing DataVolume per task. */
  async ensureDataVolumes(vm: VMStatus, tasks: Task[]): Promise<void> {
    const builder = this.#o.builder;
    const dataVolumeSource = builder?.dataVolumeSource?.bind(builder);
    if (dataVolumeSource === undefined) {
      throw new Error(
        `VM ${vm.id}: the source builder does not describe CDI DataVolume sources (dataVolumeSource)`,
      );
    }
    const refs = await this.#ensureSecretAndConfigMap(vm);
    await this.#ensureDVs(vm, tasks, (task) => dataVolumeSource(vm, task.name, refs));
  }

  /** Ensures the VM's Secret and ConfigMap and one blank DataVolume per task, for virt-v2v to fill. */
  async allocateDisks(vm: VMStatus, tasks: Task[]): Promise<void> {
    await this.#ensureSecretAndConfigMap(vm);
    await this.#ensureDVs(vm, tasks, async () => ({ blank: {} }));
  }

  async diskTransfers(vm: VMStatus): Promise<DiskTransfer[]> {
    return (await this.#dataVolumes(vm)).map((dv) => {
      const totalMiB = parseMiB(
        (dv.spec.storage as { resources?: Storage } | undefined)?.resources,
      );
      const pct = Number.parseFloat((dv.status?.progress ?? '').replace('%', ''));
      const phase = dv.status?.phase;
      const known = ['ImportScheduled', 'ImportInProgress', 'Succeeded', 'Failed'] as const;
      const transfer: DiskTransfer = {
        disk: dv.metadata.annotations?.[ANN_DISK_SOURCE] ?? dv.metadata.name ?? '',
        phase: known.find((p) => p === phase) ?? 'Pending',
        completedMiB:
          phase === 'Succeeded'
            ? totalMiB
            : Math.floor((Number.isNaN(pct) ? 0 : pct / 100) * totalMiB),
        totalMiB,
      };
      if (phase === 'Failed') transfer.error = failureMessage(dv);
      return transfer;
    });
  }

  async ensureConversionPod(vm: VMStatus): Promise<boolean> {
    const builder = this.#o.builder;
    if (builder?.podEnvironment === undefined) {
      throw new Error(
        `VM ${vm.id}: the source builder does not give the conversion pod's environment (podEnvironment)`,
      );
    }
    const labels = conversionLabels(this.#plan, this.#o.migrationUID, vm.id ?? '');
    const existing = await this.#core.listNamespacedPod({
      namespace: this.#ns,
      labelSelector: labelSelector(labels),
    });
    if (existing.items.some((p) => p.metadata?.deletionTimestamp === undefined)) return true;
    const environment = await builder.podEnvironment(vm);
    const pvcs = diskPVCs(await this.#pvcs(vm), vm.id ?? '', this.#o.migrationUID);
    const pod = conversionPod({
      plan: this.#plan,
      migrationUID: this.#o.migrationUID,
      vmID: vm.id ?? '',
      diskClaims: pvcs.map((p) => p.metadata?.name ?? ''),
      environment,
      image: this.#o.virtV2vImage ?? DEFAULT_VIRT_V2V_IMAGE,
      ...(this.#o.source?.spec.type === 'ova' && { ovaStoreClaim: await this.#ensureOvaStore(vm) }),
    });
    this.writes++;
    const created = await this.#core.createNamespacedPod({ namespace: this.#ns, body: pod });
    this.#log.info({ vm: vm.id, pod: created.metadata?.name }, 'created guest conversion pod');
    return true;
  }

  async conversionStatus(vm: VMStatus): Promise<ConversionStatus> {
    const list = await this.#core.listNamespacedPod({
      namespace: this.#ns,
      labelSelector: labelSelector(conversionLabels(this.#plan, this.#o.migrationUID, vm.id ?? '')),
    });
    const pod = list.items.find((p) => p.metadata?.deletionTimestamp === undefined);
    if (pod === undefined) return { phase: 'NotFound', disks: new Map() };
    const phase = (pod.status?.phase ?? 'Pending') as ConversionStatus['phase'];
    const status: ConversionStatus = { phase, disks: new Map() };
    const message = pod.status?.message;
    if (phase === 'Failed' && message) status.message = message;
    if (phase === 'Running' && pod.status?.podIP) {
      const fetchMetrics = this.#o.fetchMetrics ?? (async (u) => (await fetch(u)).text());
      try {
        status.disks = parseDiskTransfers(
          await fetchMetrics(`http://${pod.status.podIP}:2112/metrics`),
        );
      } catch (error) {
        // Missing progress is not fatal (upstream logs it).
        this.#log.info({ vm: vm.id, err: error }, 'could not read conversion progress');
      }
    }
    return status;
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
    const labels = vmLabels(this.#plan, this.#o.migrationUID, vm.id ?? '');
    const list = (await this.#custom.listNamespacedCustomObject({
      ...this.#vmPath(this.#ns),
      labelSelector: labelSelector(labels),
    })) as { items: VirtualMachine[] };
    const pvcs = diskPVCs(await this.#pvcs(vm), vm.id ?? '', this.#o.migrationUID);
    let object = list.items[0];
    if (object === undefined) {
      this.writes++;
      object = (await this.#custom.createNamespacedCustomObject({
        ...this.#vmPath(this.#ns),
        body: this.#virtualMachine(vm, labels, pvcs),
      })) as VirtualMachine;
      this.#log.info({ vm: vm.id, name: object.metadata.name }, 'created KubeVirt VM');
    }
    const owner: V1OwnerReference = {
      apiVersion: API_VERSION,
      kind: 'VirtualMachine',
      name: object.metadata.name ?? '',
      uid: object.metadata.uid ?? '',
      blockOwnerDeletion: true,
      controller: false,
    };
    for (const pvc of pvcs) {
      if ((pvc.metadata?.ownerReferences ?? []).some((o) => o.uid === owner.uid)) continue;
      this.writes++;
      await this.#core.patchNamespacedPersistentVolumeClaim(
        {
          namespace: this.#ns,
          name: pvc.metadata?.name ?? '',
          body: { metadata: { ownerReferences: [owner] } },
        },
        mergePatch,
      );
    }
    for (const dv of await this.#dataVolumes(vm)) await this.#deleteDV(dv);
    return {
      name: object.metadata.name ?? '',
      namespace: this.#ns,
      uid: object.metadata.uid ?? '',
    };
  }

  /**
   * Deletes what was created for the VM: the conversion pod (unless the VM succeeded: its
   * logs stay), Secrets, ConfigMaps, hook Jobs and their ConfigMaps, the OVA store claim; with
   * `deleteVM` also the VirtualMachine (foreground) and the DataVolumes.
   */
  async cleanup(vm: VMStatus, options: { deleteVM: boolean }): Promise<void> {
    const selector = labelSelector(withoutMigration(vmLabels(this.#plan, '', vm.id ?? '')));
    const ns = this.#ns;
    if (options.deleteVM) {
      const vms = (await this.#custom.listNamespacedCustomObject({
        ...this.#vmPath(ns),
        labelSelector: selector,
      })) as { items: VirtualMachine[] };
      for (const v of vms.items) {
        await this.#ignoreNotFound(() =>
          this.#custom.deleteNamespacedCustomObject({
            ...this.#vmPath(ns),
            name: v.metadata.name ?? '',
            propagationPolicy: 'Foreground',
          }),
        );
      }
      for (const dv of await this.#dataVolumes(vm)) await this.#deleteDV(dv);
    }
    const succeeded = (vm.conditions ?? []).some(
      (c) => c.type === ConditionType.Succeeded && c.status === True,
    );
    if (!succeeded) {
      const pods = await this.#core.listNamespacedPod({ namespace: ns, labelSelector: selector });
      for (const p of pods.items) {
        await this.#ignoreNotFound(() =>
          this.#core.deleteNamespacedPod({ namespace: ns, name: p.metadata?.name ?? '' }),
        );
      }
    }
    const secrets = await this.#core.listNamespacedSecret({
      namespace: ns,
      labelSelector: selector,
    });
    for (const s of secrets.items) {
      await this.#ignoreNotFound(() =>
        this.#core.deleteNamespacedSecret({ namespace: ns, name: s.metadata?.name ?? '' }),
      );
    }
    const maps = await this.#core.listNamespacedConfigMap({
      namespace: ns,
      labelSelector: selector,
    });
    for (const m of maps.items) {
      await this.#ignoreNotFound(() =>
        this.#core.deleteNamespacedConfigMap({ namespace: ns, name: m.metadata?.name ?? '' }),
      );
    }
    await this.#deleteHookJobs(vm);
    const store = await this.#core.listNamespacedPersistentVolumeClaim({
      namespace: ns,
      labelSelector: labelSelector({
        [LABEL_PLAN]: this.#plan.metadata.uid ?? '',
        [LABEL_VM_ID]: vm.id ?? '',
        ova: OVA_PVC_LABEL,
      }),
    });
    for (const c of store.items) {
      await this.#ignoreNotFound(() =>
        this.#core.deleteNamespacedPersistentVolumeClaim({
          namespace: ns,
          name: c.metadata?.name ?? '',
        }),
      );
    }
  }

  /**
   * Deletes the DataVolumes, PVCs, Pods, Secrets, ConfigMaps, Jobs and PVs a deleted plan left
   * in any namespace (found by `plan-name` and `plan-namespace`), except those a
   * VirtualMachine owns.
   */
  async deleteOrphans(planNamespace: string, planName: string): Promise<number> {
    const selector = labelSelector({
      [LABEL_PLAN_NAME]: planName,
      [LABEL_PLAN_NAMESPACE]: planNamespace,
    });
    const vmOwned = (meta: V1ObjectMeta | undefined) =>
      (meta?.ownerReferences ?? []).some((o) => o.kind === 'VirtualMachine');
    let deleted = 0;
    const sweep = async <T extends { metadata?: V1ObjectMeta }>(
      items: T[],
      remove: (name: string, namespace: string) => Promise<unknown>,
    ) => {
      for (const item of items) {
        if (vmOwned(item.metadata)) continue;
        await this.#ignoreNotFound(() =>
          remove(item.metadata?.name ?? '', item.metadata?.namespace ?? ''),
        );
        deleted++;
      }
    };
    const dvs = (await this.#custom.listClusterCustomObject({
      group: DATA_VOLUMES.group,
      version: DATA_VOLUMES.version,
      plural: DATA_VOLUMES.resource,
      labelSelector: selector,
    })) as { items: DataVolume[] };
    await sweep(dvs.items, (name, namespace) =>
      this.#custom.deleteNamespacedCustomObject({ ...this.#dvPath(namespace), name }),
    );
    const core = this.#core;
    await sweep(
      (await core.listPersistentVolumeClaimForAllNamespaces({ labelSelector: selector })).items,
      (name, namespace) => core.deleteNamespacedPersistentVolumeClaim({ name, namespace }),
    );
    await sweep(
      (await core.listPodForAllNamespaces({ labelSelector: selector })).items,
      (name, namespace) => core.deleteNamespacedPod({ name, namespace }),
    );
    await sweep(
      (await core.listSecretForAllNamespaces({ labelSelector: selector })).items,
      (name, namespace) => core.deleteNamespacedSecret({ name, namespace }),
    );
    await sweep(
      (await core.listConfigMapForAllNamespaces({ labelSelector: selector })).items,
      (name, namespace) => core.deleteNamespacedConfigMap({ name, namespace }),
    );
    await sweep(
      (await this.#batch.listJobForAllNamespaces({ labelSelector: selector })).items,
      (name, namespace) =>
        this.#batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' }),
    );
    await sweep((await core.listPersistentVolume({ labelSelector: selector })).items, (name) =>
      core.deletePersistentVolume({ name }),
    );
    return deleted;
  }

  async #ensureSecretAndConfigMap(vm: VMStatus): Promise<{ secret: string; configMap: string }> {
    const labels = vmLabels(this.#plan, this.#o.migrationUID, vm.id ?? '');
    const generateName = `${this.#plan.metadata.name}-${vm.id}-`.toLowerCase();
    const secretLabels = { ...labels, [LABEL_IS_DV]: 'true' };
    const secrets = await this.#core.listNamespacedSecret({
      namespace: this.#ns,
      labelSelector: labelSelector(secretLabels),
    });
    let secret = secrets.items[0]?.metadata?.name;
    if (secret === undefined) {
      this.writes++;
      const created = await this.#core.createNamespacedSecret({
        namespace: this.#ns,
        body: { metadata: { generateName, namespace: this.#ns, labels: secretLabels } },
      });
      secret = created.metadata?.name ?? '';
    }
    const maps = await this.#core.listNamespacedConfigMap({
      namespace: this.#ns,
      labelSelector: labelSelector(labels),
    });
    let configMap = maps.items[0]?.metadata?.name;
    if (configMap === undefined) {
      this.writes++;
      const created = await this.#core.createNamespacedConfigMap({
        namespace: this.#ns,
        body: { metadata: { generateName, namespace: this.#ns, labels } },
      });
      configMap = created.metadata?.name ?? '';
    }
    return { secret, configMap };
  }

  async #ensureDVs(
    vm: VMStatus,
    tasks: Task[],
    source: (task: Task) => Promise<Record<string, unknown>>,
  ): Promise<void> {
    const labels = vmLabels(this.#plan, this.#o.migrationUID, vm.id ?? '');
    const list = (await this.#custom.listNamespacedCustomObject({
      ...this.#dvPath(this.#ns),
      labelSelector: labelSelector(labels),
    })) as { items: DataVolume[] };
    const have = new Set(list.items.map((dv) => dv.metadata.annotations?.[ANN_DISK_SOURCE]));
    for (const [index, task] of tasks.entries()) {
      if (have.has(task.name)) continue;
      const annotations: Record<string, string> = {
        ...labels,
        [ANN_DELETE_AFTER_COMPLETION]: 'false',
        [ANN_DISK_SOURCE]: task.name,
        [ANN_DISK_INDEX]: String(index),
      };
      const plan = this.#plan;
      const remote = this.#o.destinationIsHost === false;
      if (plan.spec.warm === true || remote || this.#o.source?.spec.type === 'openshift') {
        annotations[ANN_BIND_IMMEDIATE] = 'true';
      }
      const network = plan.spec.transferNetwork;
      if (network?.name) {
        annotations[ANN_TRANSFER_NETWORK] = JSON.stringify([
          { name: network.name, namespace: network.namespace ?? plan.metadata.namespace },
        ]);
      }
      const body: DataVolume = {
        apiVersion: DV_API_VERSION,
        kind: 'DataVolume',
        metadata: { namespace: this.#ns, labels, annotations, ...this.#dvName(vm, index) },
        spec: {
          source: await source(task),
          storage: {
            resources: { requests: { storage: `${task.progress.total}Mi` } },
            ...diskStorage(
              this.#o.storageMap?.spec.map,
              await this.#o.inventory?.findVM(vm),
              index,
            ),
          },
        },
      };
      this.writes++;
      await this.#custom.createNamespacedCustomObject({ ...this.#dvPath(this.#ns), body });
    }
  }

  /** The PVC name template (the VM's, else the plan's) as `name`, else generateName `<plan>-<vmID>-`. */
  #dvName(vm: VMStatus, diskIndex: number): { name: string } | { generateName: string } {
    const template = vm.pvcNameTemplate || this.#plan.spec.pvcNameTemplate;
    if (template) {
      return {
        name: isValidTemplate(template, {
          VmName: vm.name ?? '',
          TargetVmName: vm.newName || vm.name || '',
          PlanName: this.#plan.metadata.name ?? '',
          DiskIndex: diskIndex,
          VmId: vm.id ?? '',
        }),
      };
    }
    return { generateName: `${this.#plan.metadata.name}-${vm.id}-`.toLowerCase() };
  }

  #virtualMachine(
    vm: VMStatus,
    labels: Record<string, string>,
    pvcs: V1PersistentVolumeClaim[],
  ): VirtualMachine {
    const name = vm.newName || vm.name || vm.id || '';
    const annotations: Record<string, string> = {};
    if (vm.newName) {
      annotations[ANN_DISPLAY_NAME] = vm.name ?? '';
      annotations[ANN_ORIGINAL_ID] = vm.id ?? '';
    }
    const volumes = pvcs.map((pvc, i) => ({
      name: `vol-${i}`,
      persistentVolumeClaim: { claimName: pvc.metadata?.name ?? '' },
    }));
    return {
      apiVersion: API_VERSION,
      kind: 'VirtualMachine',
      metadata: {
        name,
        namespace: this.#ns,
        labels,
        ...(vm.newName && { annotations }),
      },
      spec: {
        runStrategy: determineRunStrategy(vm, this.#plan.spec.targetPowerState),
        template: {
          metadata: {
            labels: { ...this.#plan.spec.targetLabels, app: name },
            annotations: {
              'vm.kubevirt.io/flavor': '',
              'vm.kubevirt.io/os': '',
              'vm.kubevirt.io/workload': '',
            },
          },
          spec: {
            domain: {
              devices: { disks: volumes.map((v) => ({ name: v.name, disk: { bus: 'virtio' } })) },
            },
            volumes,
          },
        },
      },
    };
  }

  async #ensureOvaStore(vm: VMStatus): Promise<string> {
    const source = this.#o.source as Provider;
    const pv = ovaStorePV(this.#plan, source, this.#o.migrationName ?? '', vm.id ?? '');
    const pvs = await this.#core.listPersistentVolume({
      labelSelector: labelSelector(pv.metadata?.labels ?? {}),
    });
    let pvName = pvs.items[0]?.metadata?.name;
    if (pvName === undefined) {
      this.writes++;
      pvName = (await this.#core.createPersistentVolume({ body: pv })).metadata?.name ?? '';
    }
    const pvc = ovaStorePVC(this.#plan, source, this.#o.migrationUID, vm.id ?? '', pvName);
    const pvcs = await this.#core.listNamespacedPersistentVolumeClaim({
      namespace: this.#ns,
      labelSelector: labelSelector(pvc.metadata?.labels ?? {}),
    });
    const found = pvcs.items[0]?.metadata?.name;
    if (found !== undefined) return found;
    this.writes++;
    const created = await this.#core.createNamespacedPersistentVolumeClaim({
      namespace: this.#ns,
      body: pvc,
    });
    return created.metadata?.name ?? '';
  }

  async #deleteHookJobs(vm: VMStatus): Promise<void> {
    const namespace = this.#plan.metadata.namespace ?? '';
    const selector = labelSelector({
      [LABEL_PLAN]: this.#plan.metadata.uid ?? '',
      [LABEL_VM_ID]: vm.id ?? '',
      [LABEL_KUBEVIRT_RESOURCE]: RESOURCE_HOOK_CONFIG,
    });
    const jobs = await this.#batch.listNamespacedJob({ namespace, labelSelector: selector });
    for (const j of jobs.items) {
      await this.#ignoreNotFound(() =>
        this.#batch.deleteNamespacedJob({
          namespace,
          name: j.metadata?.name ?? '',
          propagationPolicy: 'Background',
        }),
      );
    }
    const maps = await this.#core.listNamespacedConfigMap({ namespace, labelSelector: selector });
    for (const m of maps.items) {
      await this.#ignoreNotFound(() =>
        this.#core.deleteNamespacedConfigMap({ namespace, name: m.metadata?.name ?? '' }),
      );
    }
  }

  /** The VM's DataVolumes of any Migration. */
  async #dataVolumes(vm: VMStatus): Promise<DataVolume[]> {
    const list = (await this.#custom.listNamespacedCustomObject({
      ...this.#dvPath(this.#ns),
      labelSelector: labelSelector(withoutMigration(vmLabels(this.#plan, '', vm.id ?? ''))),
    })) as { items: DataVolume[] };
    return list.items.filter((dv) => dv.metadata.deletionTimestamp === undefined);
  }

  /** The PVCs labelled with the VM's id and this Migration's UID. */
  async #pvcs(vm: VMStatus): Promise<V1PersistentVolumeClaim[]> {
    const list = await this.#core.listNamespacedPersistentVolumeClaim({
      namespace: this.#ns,
      labelSelector: labelSelector(pvcSelector(vm.id ?? '', this.#o.migrationUID)),
    });
    return list.items;
  }

  async #deleteDV(dv: DataVolume): Promise<void> {
    await this.#ignoreNotFound(() =>
      this.#custom.deleteNamespacedCustomObject({
        ...this.#dvPath(dv.metadata.namespace ?? this.#ns),
        name: dv.metadata.name ?? '',
      }),
    );
  }

  async #ignoreNotFound(fn: () => Promise<unknown>): Promise<void> {
    try {
      this.writes++;
      await fn();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  #vmPath(namespace: string) {
    return {
      group: VIRTUAL_MACHINES.group,
      version: VIRTUAL_MACHINES.version,
      plural: VIRTUAL_MACHINES.resource,
      namespace,
    };
  }

  #dvPath(namespace: string) {
    return {
      group: DATA_VOLUMES.group,
      version: DATA_VOLUMES.version,
      plural: DATA_VOLUMES.resource,
      namespace,
    };
  }
}

type Storage = { requests?: { storage?: string } };

/** MiB of a `NMi`/`NGi` storage request (0 when absent). */
function parseMiB(resources: Storage | undefined): number {
  const value = resources?.requests?.storage ?? '';
  const m = /^(\d+)(Mi|Gi|Ti)?$/.exec(value);
  if (m === null) return 0;
  const n = Number(m[1]);
  return m[2] === 'Gi' ? n * 1024 : m[2] === 'Ti' ? n * 1024 * 1024 : n;
}

/** The message of a failed DataVolume: its last condition's message, else a generic one. */
function failureMessage(dv: DataVolume): string {
  const conditions = (dv.status?.conditions ?? []) as Array<{ message?: string }>;
  return conditions.findLast((c) => c.message)?.message ?? 'DataVolume import failed.';
}
