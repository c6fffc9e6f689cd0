/**
 * The replicas showcase: the ConfigMapSet CRD (from a TypeBox schema, `@ctrlkit/runtime/crd`)
 * and its controller, which keeps `spec.replicas` ConfigMaps per ConfigMapSet with
 * `@ctrlkit/expectations`, so a stale informer cache never makes it create or delete too many.
 *
 * @packageDocumentation
 */

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
