/**
 * The replicas showcase: the ConfigMapSet CRD (from TypeBox schemas, `@ctrlkit/runtime/crd`),
 * served as v1 (storage, hub) and v1alpha1, converted by a conversion webhook
 * (`@ctrlkit/runtime/webhook`); and its controller, which keeps `spec.replicas` ConfigMaps per
 * ConfigMapSet with `@ctrlkit/expectations`, so a stale informer cache never makes it create
 * or delete too many. `newReplicasManager` runs both: the controller and the webhook server.
 *
 * @packageDocumentation
 */

export {
  type ConfigMapSet,
  configMapSetConversion,
  configMapSetCrd,
  configMapSetSchema,
  conversionWebhookClient,
  crdManifestPath,
  group,
  kind,
  ownerLabel,
  plural,
  regenerateCrdsCommand,
  version,
} from './configmapset-crd.js';
export {
  configMapSetV1alpha1Schema,
  conversionDataAnnotation,
  v1alpha1,
  v1alpha1Converter,
} from './configmapset-v1alpha1.js';
export {
  type ReplicasController,
  type ReplicasControllerOptions,
  startReplicasController,
} from './replicas-controller.js';
export { newReplicasManager, type ReplicasManagerOptions } from './replicas-manager.js';
