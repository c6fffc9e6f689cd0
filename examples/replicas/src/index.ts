//! The replicas showcase: the ConfigMapSet CRD and its controller.

export {
  type ConfigMapSet,
  configMapSetCrd,
  configMapSetSchema,
  crdManifestPath,
  group,
  kind,
  ownerLabel,
  plural,
  regenerateCrdsCommand,
  version,
} from './configmapset-crd.js';
export {
  type ReplicasController,
  type ReplicasControllerOptions,
  startReplicasController,
} from './replicas-controller.js';
