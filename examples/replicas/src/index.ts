//! The replicas showcase: the ConfigMapSet CRD and its controller.

export {
  type ConfigMapSet,
  configMapSetCrd,
  group,
  kind,
  ownerLabel,
  plural,
  version,
} from './configmapset-crd.js';
export {
  type ReplicasController,
  type ReplicasControllerOptions,
  startReplicasController,
} from './replicas-controller.js';
