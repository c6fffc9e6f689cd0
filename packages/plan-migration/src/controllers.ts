/**
 * `@ctrlkit/plan-migration/controllers`: Forklift's provider, map, hook and migration
 * controllers, reduced to what the Plan controller needs. Each is a `@ctrlkit/runtime`
 * `Controller` (`runtimeController`, to add to a `Manager`, or `run(signal)`) that writes
 * `status.conditions` and `status.observedGeneration` of its resource.
 *
 * - {@link ProviderController}: a Provider is Ready when its type's `ProviderInspector` (root)
 *   reports no blocker ({@link DEFAULT_PROVIDER_INSPECTORS}).
 * - {@link NetworkMapController}, {@link StorageMapController}: the maps' providers and pairs
 *   ({@link validateNetworkMap}, {@link validateStorageMap}).
 * - {@link HookController}: the hook's image and playbook ({@link validateHook}).
 * - {@link MigrationController}: the Migration's plan ({@link validateMigration}).
 * - Options: {@link ResourceControllerOptions} (`kubeConfig`, a shared `informerFactory`).
 *
 * A first program:
 * ```ts
 * import { HookController, NetworkMapController, ProviderController } from '@ctrlkit/plan-migration/controllers';
 *
 * const informerFactory = manager.informerFactory;
 * for (const c of [
 *   new ProviderController({ kubeConfig, informerFactory }),
 *   new NetworkMapController({ kubeConfig, informerFactory }),
 *   new HookController({ kubeConfig, informerFactory }),
 * ])
 *   manager.add(c.runtimeController);
 * ```
 *
 * @packageDocumentation
 */

export { HookController, type HookControllerOptions } from './controllers/hook-controller.js';
export { IMAGE_REFERENCE_PATTERN, isBase64, validateHook } from './controllers/hook-validation.js';
export {
  type MapControllerOptions,
  NetworkMapController,
  STORAGE_CLASSES,
  StorageMapController,
} from './controllers/map-controller.js';
export {
  type StorageClassLookup,
  validateNetworkMap,
  validateStorageMap,
} from './controllers/map-validation.js';
export {
  MIGRATION_VALIDATION_CONDITIONS,
  MigrationController,
  type MigrationControllerOptions,
  type MigrationValidationInput,
  validateMigration,
} from './controllers/migration-controller.js';
export {
  DEFAULT_PROVIDER_INSPECTORS,
  hostInspector,
  inspectProvider,
  ProviderController,
  type ProviderControllerOptions,
  ProviderPhase,
  simulatedInspector,
} from './controllers/provider-controller.js';
export {
  isHost,
  type ProviderLookup,
  type ProviderPair,
  type ProviderPairResult,
  validateProviderPair,
} from './controllers/provider-pair.js';
export type { ResourceControllerOptions } from './controllers/resource-controller-options.js';
