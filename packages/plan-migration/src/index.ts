/**
 * `@ctrlkit/plan-migration`: Forklift's plan controller for TypeScript. A `Plan` says which
 * VMs move from a source provider into KubeVirt with which network and storage mappings;
 * each `Migration` is one ordered, idempotent execution of it; every VM walks its own
 * pipeline of phases. The root holds the controller and what plugs into it:
 *
 * - {@link PlanController} ({@link PlanControllerOptions}): watches Plans and Migrations and
 *   runs them on one runtime `Controller`.
 * - What plugs in (`adapter.ts`): a {@link SourceAdapter} per source provider (its
 *   {@link Inventory}, {@link Client}, {@link Builder}, {@link Validator}), a
 *   {@link Destination} per plan (given a {@link DestinationContext}; the default is
 *   {@link ConfigMapDestination}), a {@link HookRunner} for PreHook/PostHook.
 * - {@link SimulatedSource}: a source provider simulated on the clock (inventory, power,
 *   snapshots, disk copies), for the `simulated` provider type and demos.
 * - {@link migrationSettings}: the pipeline's settings and defaults ({@link MAX_VM_INFLIGHT}, …).
 * - The CRDs to install first: {@link forkliftCrds} (group {@link GROUP}, version
 *   {@link VERSION}).
 *
 * The other concepts have their subpaths: `./api` (the resources, their schemas, conditions,
 * labels and phases), `./pipeline` (the reconcile, execution and per-VM pipeline behind the
 * controller), `./controllers` (the Provider, map, Hook and Migration controllers), `./ova`
 * (the OVA source provider), `./kubevirt` (the KubeVirt destination and Job hook runner),
 * `./testing` (a plan harness without an API server, simulators of CDI, KubeVirt and the
 * kubelet, OVA fixtures).
 *
 * A first program:
 * ```ts
 * import { realClock } from '@ctrlkit/core';
 * import { PlanController, SimulatedSource, type SourceAdapter } from '@ctrlkit/plan-migration';
 *
 * const vms = [{ id: 'vm-0', name: 'web', powerState: 'On' as const, disks: [], networks: [] }];
 * const simulated = new SimulatedSource({ clock: realClock, vms });
 * const source: SourceAdapter = {
 *   inventory: simulated,
 *   client: simulated,
 *   builder: simulated,
 *   validator: (plan, maps) => simulated.validator(plan, maps),
 * };
 * const controller = new PlanController({
 *   kubeConfig, // where Plans live and the destination is; install forkliftCrds first
 *   sources: (provider) => (provider.spec.type === 'simulated' ? source : undefined),
 * });
 * await controller.run(signal);
 * ```
 *
 * @packageDocumentation
 */

export type {
  Builder,
  Client,
  ConversionStatus,
  Destination,
  DestinationClient,
  DestinationContext,
  DestinationVM,
  DiskTransfer,
  Ensurer,
  GuestConversion,
  HookContext,
  HookResult,
  HookRunner,
  Inventory,
  InventoryDisk,
  InventoryNIC,
  InventoryVM,
  Migrator,
  ProviderInspector,
  SourceAdapter,
  Validator,
} from './adapter.js';
export { isGuestConversion } from './adapter.js';
export { ConfigMapDestination, LABEL_RESOURCE } from './configmap-destination.js';
export {
  API_VERSION,
  CRD_MANIFEST_PATH,
  FORKLIFT_GROUP,
  forkliftCrds,
  forkliftCrdsOf,
  GROUP,
  PLURALS,
  REGENERATE_CRDS_COMMAND,
  VERSION,
} from './crds.js';
export {
  DEFAULT_PLAN_WORKERS,
  PlanController,
  type PlanControllerOptions,
} from './plan-controller.js';
export {
  DEFAULT_BLOCKER_GRACE_PERIOD_MS,
  DEFAULT_HOOK_RETRY,
  DEFAULT_PRECOPY_INTERVAL_MS,
  DEFAULT_WAIT_FOR_FINAL_SNAPSHOT_CONSOLIDATION,
  DEFAULT_WINDOWS_WAIT_FOR_REBOOT,
  MAX_VM_INFLIGHT,
  type MigrationSettings,
  migrationSettings,
} from './settings.js';
export {
  DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S,
  DEFAULT_SIMULATED_POWER_OFF_MS,
  DEFAULT_SIMULATED_SNAPSHOT_MS,
  SIMULATED_DELTA_FRACTION,
  SimulatedSource,
  type SimulatedSourceOptions,
} from './simulated-source.js';
