//! Structural schemas of the KubeVirt, CDI and CSI snapshot CRDs the KubeVirt destination uses, and their object types.

import type { Wire } from '@ctrlkit/runtime/client';
import { customResourceDefinition } from '@ctrlkit/runtime/crd';
import type { V1CustomResourceDefinition, V1ObjectMeta } from '@kubernetes/client-node';
import { type Static, type TSchema, Type } from 'typebox';

/** KubeVirt's group and version of `VirtualMachine`. */
export const KUBEVIRT_GROUP = 'kubevirt.io';
/** `kubevirt.io/v1`. */
export const KUBEVIRT_VERSION = 'v1';
/** CDI's group. */
export const CDI_GROUP = 'cdi.kubevirt.io';
/** CDI's `DataVolume` version. */
export const CDI_VERSION = 'v1beta1';
/** The CSI snapshot group. */
export const SNAPSHOT_GROUP = 'snapshot.storage.k8s.io';
/** The CSI snapshot version. */
export const SNAPSHOT_VERSION = 'v1';

/** The resource of `VirtualMachine` (kubevirt.io/v1 virtualmachines). */
export const VIRTUAL_MACHINES = {
  group: KUBEVIRT_GROUP,
  version: KUBEVIRT_VERSION,
  resource: 'virtualmachines',
} as const;
/** The resource of `DataVolume` (cdi.kubevirt.io/v1beta1 datavolumes). */
export const DATA_VOLUMES = {
  group: CDI_GROUP,
  version: CDI_VERSION,
  resource: 'datavolumes',
} as const;
/** The resource of `VolumeSnapshot` (snapshot.storage.k8s.io/v1 volumesnapshots). */
export const VOLUME_SNAPSHOTS = {
  group: SNAPSHOT_GROUP,
  version: SNAPSHOT_VERSION,
  resource: 'volumesnapshots',
} as const;
/** The resource of `VolumeSnapshotClass` (snapshot.storage.k8s.io/v1 volumesnapshotclasses). */
export const VOLUME_SNAPSHOT_CLASSES = {
  group: SNAPSHOT_GROUP,
  version: SNAPSHOT_VERSION,
  resource: 'volumesnapshotclasses',
} as const;

const open = <T extends TSchema>(schema: T) =>
  Type.Optional({ ...schema, 'x-kubernetes-preserve-unknown-fields': true } as T);
const anyObject = () => open(Type.Object({}));

/** KubeVirt's run strategies. */
export const RUN_STRATEGIES = ['Always', 'Halted', 'Manual', 'RerunOnFailure', 'Once'] as const;
/** A VirtualMachine's run strategy. */
export type RunStrategy = (typeof RUN_STRATEGIES)[number];

/** `VirtualMachine.spec`: the run strategy and the instance template (the rest kept as is). */
export const VirtualMachineSpecSchema = Type.Object({
  runStrategy: Type.Optional(Type.String()),
  running: Type.Optional(Type.Boolean()),
  template: Type.Object({
    metadata: open(
      Type.Object({
        labels: Type.Optional(Type.Record(Type.String(), Type.String())),
        annotations: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    ),
    spec: anyObject(),
  }),
  dataVolumeTemplates: Type.Optional(Type.Array(Type.Unknown())),
});
/** `VirtualMachine.status`: what the KubeVirt controller reports. */
export const VirtualMachineStatusSchema = open(
  Type.Object({
    printableStatus: Type.Optional(Type.String()),
    ready: Type.Optional(Type.Boolean()),
    created: Type.Optional(Type.Boolean()),
    conditions: Type.Optional(Type.Array(anyObject())),
  }),
);

/** CDI's DataVolume phases the destination reads. */
export const DATA_VOLUME_PHASES = [
  'Pending',
  'PVCBound',
  'ImportScheduled',
  'ImportInProgress',
  'Succeeded',
  'Failed',
  'Paused',
  'WaitForFirstConsumer',
] as const;

/** `DataVolume.spec`: source (http, vddk, imageio, blank...) and storage (kept as is). */
export const DataVolumeSpecSchema = Type.Object({
  source: anyObject(),
  sourceRef: anyObject(),
  storage: anyObject(),
  pvc: anyObject(),
  checkpoints: Type.Optional(Type.Array(anyObject())),
  finalCheckpoint: Type.Optional(Type.Boolean()),
});
/** `DataVolume.status`: phase, progress (`"NN.NN%"`), restarts and conditions. */
export const DataVolumeStatusSchema = open(
  Type.Object({
    phase: Type.Optional(Type.String()),
    progress: Type.Optional(Type.String()),
    restartCount: Type.Optional(Type.Integer()),
    claimName: Type.Optional(Type.String()),
    conditions: Type.Optional(Type.Array(anyObject())),
  }),
);

/** `VolumeSnapshot.spec`: the source PVC or content, and the class. */
export const VolumeSnapshotSpecSchema = Type.Object({
  source: Type.Object({
    persistentVolumeClaimName: Type.Optional(Type.String()),
    volumeSnapshotContentName: Type.Optional(Type.String()),
  }),
  volumeSnapshotClassName: Type.Optional(Type.String()),
});
/** `VolumeSnapshot.status`. */
export const VolumeSnapshotStatusSchema = open(
  Type.Object({
    boundVolumeSnapshotContentName: Type.Optional(Type.String()),
    readyToUse: Type.Optional(Type.Boolean()),
    restoreSize: Type.Optional(Type.String()),
    creationTime: Type.Optional(Type.String()),
    error: anyObject(),
  }),
);

/** A KubeVirt `VirtualMachine` (the fields the destination reads and writes). */
export interface VirtualMachine {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: Static<typeof VirtualMachineSpecSchema> & { runStrategy?: RunStrategy | string };
  status?: Static<typeof VirtualMachineStatusSchema>;
}
/** A CDI `DataVolume` (the fields the destination reads and writes). */
export interface DataVolume {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: Static<typeof DataVolumeSpecSchema>;
  status?: Static<typeof DataVolumeStatusSchema>;
}
/** A CSI `VolumeSnapshot`. */
export interface VolumeSnapshot {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: Static<typeof VolumeSnapshotSpecSchema>;
  status?: Static<typeof VolumeSnapshotStatusSchema>;
}
/** A CSI `VolumeSnapshotClass` (cluster-scoped; no spec, top-level fields). */
export interface VolumeSnapshotClass {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  driver: string;
  deletionPolicy: 'Delete' | 'Retain';
  parameters?: Record<string, string>;
}

/** The `VirtualMachine` CRD (kubevirt.io/v1), for tests and demos on a cluster without KubeVirt. */
export const virtualMachineCrd: V1CustomResourceDefinition = customResourceDefinition({
  group: KUBEVIRT_GROUP,
  names: { kind: 'VirtualMachine', plural: 'virtualmachines', shortNames: ['vm', 'vms'] },
  versions: [
    {
      name: KUBEVIRT_VERSION,
      schema: Type.Object({
        spec: VirtualMachineSpecSchema,
        status: VirtualMachineStatusSchema,
      }),
      subresources: { status: {} },
      additionalPrinterColumns: [
        { name: 'Status', type: 'string', jsonPath: '.status.printableStatus' },
        { name: 'Ready', type: 'string', jsonPath: '.status.ready' },
      ],
    },
  ],
});

/** The `DataVolume` CRD (cdi.kubevirt.io/v1beta1). */
export const dataVolumeCrd: V1CustomResourceDefinition = customResourceDefinition({
  group: CDI_GROUP,
  names: { kind: 'DataVolume', plural: 'datavolumes', shortNames: ['dv', 'dvs'] },
  versions: [
    {
      name: CDI_VERSION,
      schema: Type.Object({ spec: DataVolumeSpecSchema, status: DataVolumeStatusSchema }),
      subresources: { status: {} },
      additionalPrinterColumns: [
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Progress', type: 'string', jsonPath: '.status.progress' },
      ],
    },
  ],
});

/** `*.k8s.io` groups need API approval; the external-snapshotter's CRDs carry this one. */
const snapshotApproval = {
  annotations: {
    'api-approved.kubernetes.io': 'https://github.com/kubernetes-csi/external-snapshotter/pull/814',
  },
};

/** The `VolumeSnapshot` CRD (snapshot.storage.k8s.io/v1). */
export const volumeSnapshotCrd: V1CustomResourceDefinition = customResourceDefinition({
  group: SNAPSHOT_GROUP,
  metadata: snapshotApproval,
  names: { kind: 'VolumeSnapshot', plural: 'volumesnapshots', shortNames: ['vs'] },
  versions: [
    {
      name: SNAPSHOT_VERSION,
      schema: Type.Object({ spec: VolumeSnapshotSpecSchema, status: VolumeSnapshotStatusSchema }),
      subresources: { status: {} },
    },
  ],
});

/** The `VolumeSnapshotClass` CRD (snapshot.storage.k8s.io/v1, cluster-scoped). */
export const volumeSnapshotClassCrd: V1CustomResourceDefinition = customResourceDefinition({
  group: SNAPSHOT_GROUP,
  metadata: snapshotApproval,
  scope: 'Cluster',
  names: { kind: 'VolumeSnapshotClass', plural: 'volumesnapshotclasses', shortNames: ['vsclass'] },
  versions: [
    {
      name: SNAPSHOT_VERSION,
      schema: Type.Object({
        driver: Type.String(),
        deletionPolicy: Type.Union([Type.Literal('Delete'), Type.Literal('Retain')]),
        parameters: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    },
  ],
});

/** Every CRD the KubeVirt destination and its simulators need, in install order. */
export const kubevirtCrds: readonly V1CustomResourceDefinition[] = [
  virtualMachineCrd,
  dataVolumeCrd,
  volumeSnapshotCrd,
  volumeSnapshotClassCrd,
];
