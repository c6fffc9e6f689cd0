//! The guest conversion (virt-v2v) pod and the NFS volume of an OVA source (Forklift's KubeVirt conversion pod builders).

import type { Wire } from '@ctrlkit/runtime/client';
import type {
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1Volume,
  V1VolumeMount,
} from '@kubernetes/client-node';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import {
  LABEL_MIGRATION,
  LABEL_PLAN,
  LABEL_PLAN_NAME,
  LABEL_PLAN_NAMESPACE,
  LABEL_VM_ID,
} from '../labels.js';
import { parseNfsShare } from '../ova/provider-catalogs.js';
import { APP_VIRT_V2V, LABEL_APP, OVA_PV_LABEL, OVA_PVC_LABEL, vmLabels } from './labels.js';

/** The virt-v2v image unless told otherwise, as Forklift's `VIRT_V2V_IMAGE` default. */
export const DEFAULT_VIRT_V2V_IMAGE = 'quay.io/kubev2v/forklift-virt-v2v:latest';
/** Size of the NFS PersistentVolume and claim of an OVA store: 1Gi, as upstream `PVSize`. */
export const OVA_STORE_SIZE = '1Gi';
/** Where the OVA store is mounted in the conversion pod. */
export const OVA_STORE_MOUNT_PATH = '/ova';

/** The labels of a VM's conversion pod: the VM's labels and `forklift.app=virt-v2v`. */
export function conversionLabels(
  plan: Plan,
  migrationUID: string,
  vmID: string,
): Record<string, string> {
  return { ...vmLabels(plan, migrationUID, vmID), [LABEL_APP]: APP_VIRT_V2V };
}

/** Splits an OVA provider's `spec.url` (`server:/path`); throws naming the provider when malformed. */
export function nfsShare(provider: Provider): { server: string; path: string } {
  const share = parseNfsShare(provider.spec.url);
  if (share === undefined) {
    throw new Error(
      `provider ${provider.metadata.namespace}/${provider.metadata.name}: spec.url must be server:/path for an NFS share, got "${provider.spec.url ?? ''}"`,
    );
  }
  return share;
}

const storePrefix = (kind: 'pv' | 'pvc', provider: Provider, plan: Plan) =>
  `ova-store-${kind}-${provider.metadata.name}-${plan.metadata.name}-`;

function storeLabels(
  plan: Plan,
  provider: Provider,
  migration: string,
  vmID: string,
  ova: string,
): Record<string, string> {
  return {
    provider: provider.metadata.name ?? '',
    app: 'forklift',
    [LABEL_MIGRATION]: migration,
    [LABEL_PLAN]: plan.metadata.uid ?? '',
    [LABEL_PLAN_NAME]: plan.metadata.name ?? '',
    [LABEL_PLAN_NAMESPACE]: plan.metadata.namespace ?? '',
    ova,
    [LABEL_VM_ID]: vmID,
  };
}

/**
 * The read-only NFS PersistentVolume of an OVA provider's share for one VM, labelled
 * `ova=nfs-pv` (its `migration` label is the Migration's name, as upstream).
 */
export function ovaStorePV(
  plan: Plan,
  provider: Provider,
  migrationName: string,
  vmID: string,
): V1PersistentVolume {
  const { server, path } = nfsShare(provider);
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      generateName: storePrefix('pv', provider, plan),
      labels: storeLabels(plan, provider, migrationName, vmID, OVA_PV_LABEL),
    },
    spec: {
      capacity: { storage: OVA_STORE_SIZE },
      accessModes: ['ReadOnlyMany'],
      nfs: { server, path },
    },
  };
}

/** The claim of {@link ovaStorePV} in the target namespace, labelled `ova=nfs-pvc`. */
export function ovaStorePVC(
  plan: Plan,
  provider: Provider,
  migrationUID: string,
  vmID: string,
  pvName: string,
): Wire<V1PersistentVolumeClaim> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      generateName: storePrefix('pvc', provider, plan),
      namespace: plan.spec.targetNamespace,
      labels: storeLabels(plan, provider, migrationUID, vmID, OVA_PVC_LABEL),
    },
    spec: {
      resources: { requests: { storage: OVA_STORE_SIZE } },
      accessModes: ['ReadOnlyMany'],
      volumeName: pvName,
      storageClassName: '',
    },
  };
}

/** What {@link conversionPod} builds the pod from. */
export interface ConversionPodInput {
  plan: Plan;
  migrationUID: string;
  vmID: string;
  /** The VM's disk claims, in disk order; mounted at `/mnt/disks/disk<N>`. */
  diskClaims: string[];
  /** From the source builder's `podEnvironment`. */
  environment: Array<{ name: string; value: string }>;
  image: string;
  /** The OVA store claim, mounted at {@link OVA_STORE_MOUNT_PATH}. */
  ovaStoreClaim?: string;
}

/** The VM's virt-v2v pod: one container `virt-v2v`, the disks and the OVA store mounted, never restarted. */
export function conversionPod(input: ConversionPodInput): V1Pod {
  const volumes: V1Volume[] = input.diskClaims.map((claim, i) => ({
    name: `disk${i}`,
    persistentVolumeClaim: { claimName: claim },
  }));
  const mounts: V1VolumeMount[] = input.diskClaims.map((_, i) => ({
    name: `disk${i}`,
    mountPath: `/mnt/disks/disk${i}`,
  }));
  if (input.ovaStoreClaim !== undefined) {
    volumes.push({ name: 'store-pv', persistentVolumeClaim: { claimName: input.ovaStoreClaim } });
    mounts.push({ name: 'store-pv', mountPath: OVA_STORE_MOUNT_PATH });
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${input.plan.metadata.name}-${input.vmID}-`.toLowerCase(),
      namespace: input.plan.spec.targetNamespace,
      labels: conversionLabels(input.plan, input.migrationUID, input.vmID),
    },
    spec: {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'virt-v2v',
          image: input.image,
          env: input.environment,
          volumeMounts: mounts,
          ports: [{ name: 'metrics', containerPort: 2112, protocol: 'TCP' }],
        },
      ],
      volumes,
    },
  };
}

/**
 * The per-disk progress in virt-v2v's metrics text (`v2v_disk_transfers{disk_id="N"} P`),
 * as upstream reads it from the pod's `:2112/metrics`: percent (capped at 100) by disk id.
 */
export function parseDiskTransfers(metrics: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of metrics.matchAll(/v2v_disk_transfers\{disk_id="(\d+)"\} (\d{1,3}\.?\d*)/g)) {
    out.set(Number(m[1]), Math.min(100, Number(m[2])));
  }
  return out;
}
