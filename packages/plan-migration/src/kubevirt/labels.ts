//! The labels and annotations Forklift's KubeVirt destination puts on what it creates.

import type { Plan } from '../api/plan.js';
import { planVMLabels } from '../labels.js';

/** Label: what an object is for; `vm-config` on everything of a VM. */
export const LABEL_KUBEVIRT_RESOURCE = 'resource';
/** The `resource` of a VM's objects. */
export const RESOURCE_VM_CONFIG = 'vm-config';
/** The `resource` of a hook's Job and ConfigMap. */
export const RESOURCE_HOOK_CONFIG = 'hook-config';
/** Label `isDV=true` on the credential Secret of the CDI importer. */
export const LABEL_IS_DV = 'isDV';
/** Label: the app a pod belongs to (`virt-v2v` on the conversion pod). */
export const LABEL_APP = 'forklift.app';
/** The `forklift.app` of the guest conversion pod. */
export const APP_VIRT_V2V = 'virt-v2v';
/** Label of a hook Job: the VM phase (`PreHook` or `PostHook`). */
export const LABEL_STEP = 'step';
/** Label of a hook Job: the Hook's UID. */
export const LABEL_HOOK = 'hook';
/** Label value `ova=nfs-pv` on the PersistentVolume of an OVA provider's NFS share. */
export const OVA_PV_LABEL = 'nfs-pv';
/** Label value `ova=nfs-pvc` on the claim of an OVA provider's NFS share. */
export const OVA_PVC_LABEL = 'nfs-pvc';

/** Annotation: the source disk a PVC (or DataVolume) holds; a PVC without it is no VM disk. */
export const ANN_DISK_SOURCE = 'forklift.konveyor.io/disk-source';
/** Annotation: the disk's index in the VM, which orders the PVCs. */
export const ANN_DISK_INDEX = 'forklift.konveyor.io/disk-index';
/** DataVolume annotation: keep the DV after the import (its status is the transfer's). */
export const ANN_DELETE_AFTER_COMPLETION = 'cdi.kubevirt.io/storage.deleteAfterCompletion';
/** DataVolume annotation: bind the PVC at once (WaitForFirstConsumer storage classes). */
export const ANN_BIND_IMMEDIATE = 'cdi.kubevirt.io/storage.bind.immediate.requested';
/** Annotation: the transfer network (Multus network selection). */
export const ANN_TRANSFER_NETWORK = 'k8s.v1.cni.cncf.io/networks';
/** VirtualMachine annotation: the source VM's name when renamed. */
export const ANN_DISPLAY_NAME = 'openshift.io/display-name';
/** VirtualMachine annotation: the source VM's id when renamed. */
export const ANN_ORIGINAL_ID = 'original-ID';

/** The labels of a VM's objects (Forklift's `vmLabels`): the plan labels, `vmID` and `resource=vm-config`. */
export function vmLabels(plan: Plan, migrationUID: string, vmID: string): Record<string, string> {
  return {
    ...planVMLabels({ plan, migrationUID, vmID }),
    [LABEL_KUBEVIRT_RESOURCE]: RESOURCE_VM_CONFIG,
  };
}
