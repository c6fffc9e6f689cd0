//! Typed informers of CSI VolumeSnapshots and VolumeSnapshotClasses over the runtime's informer factory.

import type { SharedInformerFactory } from '@ctrlkit/runtime';
import type { InformerForOptions, SharedIndexInformer } from '@ctrlkit/runtime/informers';
import {
  VOLUME_SNAPSHOT_CLASSES,
  VOLUME_SNAPSHOTS,
  type VolumeSnapshot,
  type VolumeSnapshotClass,
} from './crds.js';

/** The factory's shared informer of VolumeSnapshots (snapshot.storage.k8s.io/v1), KubeVirt's `VolumeSnapshotInformer`. */
export function volumeSnapshotInformer(
  factory: SharedInformerFactory,
  options?: InformerForOptions<VolumeSnapshot>,
): SharedIndexInformer<VolumeSnapshot> {
  return factory.forResource<VolumeSnapshot>(VOLUME_SNAPSHOTS, options);
}

/** The factory's shared informer of VolumeSnapshotClasses (cluster-scoped), KubeVirt's `VolumeSnapshotClassInformer`. */
export function volumeSnapshotClassInformer(
  factory: SharedInformerFactory,
  options?: InformerForOptions<VolumeSnapshotClass>,
): SharedIndexInformer<VolumeSnapshotClass> {
  return factory.forResource<VolumeSnapshotClass>(VOLUME_SNAPSHOT_CLASSES, options);
}
