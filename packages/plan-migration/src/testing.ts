/**
 * `@ctrlkit/plan-migration/testing`: running plans without a cluster, and stand-ins for what
 * envtest does not run.
 *
 * - {@link PlanHarness}: drives the code the PlanController runs, reconcile by reconcile, on
 *   a fake clock with a simulated source, an {@link InMemoryDestination} and a
 *   {@link ScriptedHookRunner}; no API server.
 * - Simulators, each a runtime `Controller` on a shared informer factory:
 *   {@link CdiSimulator} (DataVolumes import), {@link KubeVirtSimulator} (VirtualMachines
 *   run), {@link PodJobSimulator} (Pods and Jobs complete).
 * - {@link PlanFixture}: a test namespace's Forklift objects on a real cluster (the Providers
 *   and maps a Plan runs on, Plans, reads of them), for integration tests of the controllers.
 * - OVA fixtures: OVF descriptors per exporter ({@link VMWARE_OVF}, {@link VIRTUALBOX_OVF},
 *   …), {@link writeCatalogFiles} and {@link makeCatalogDir} (a catalog folder),
 *   {@link writeTar} (an `.ova` archive).
 *
 * A first test:
 * ```ts
 * import { FakeClock } from '@ctrlkit/core/testing';
 * import { PlanHarness } from '@ctrlkit/plan-migration/testing';
 *
 * const h = new PlanHarness({ clock: new FakeClock(), vms: 3, diskMiB: 1000, copyRateMiBPerSecond: 100 });
 * h.addMigration(); // a Migration: run the plan
 * await h.runToEnd(); // reconcile, step the clock, until no requeue
 * h.planConditions(); // ['Ready', 'Succeeded']
 * ```
 *
 * @packageDocumentation
 */

export {
  type CatalogEntry,
  makeCatalogDir,
  writeCatalogFiles,
} from './ova/testing/catalog-folder.js';
export {
  COLLECTION_OVF,
  FEWER_FILES_OVF,
  MALFORMED_OVF,
  OVIRT_OVF,
  UNRESOLVED_PROPERTY_OVF,
  VIRTUALBOX_OVF,
  VMWARE_OVF,
  XEN_OVF,
} from './ova/testing/ovf-fixtures.js';
export { type TarFile, writeTar } from './ova/testing/tar-writer.js';
export {
  CdiSimulator,
  type CdiSimulatorOptions,
  DEFAULT_CDI_PROGRESS_PER_STEP,
} from './testing/cdi-simulator.js';
export { InMemoryDestination, type InMemoryObject } from './testing/in-memory-destination.js';
export { KubeVirtSimulator } from './testing/kubevirt-simulator.js';
export {
  type ForkliftKind,
  PlanFixture,
  type PlanFixtureOptions,
  type PlanFixtureSpec,
  type ProvidersAndMapsOptions,
} from './testing/plan-fixture.js';
export { PlanHarness, type PlanHarnessOptions } from './testing/plan-harness.js';
export { PodJobSimulator, type PodJobSimulatorOptions } from './testing/pod-job-simulator.js';
export { ScriptedHookRunner } from './testing/scripted-hook-runner.js';
export {
  DEFAULT_SIMULATOR_STEP_MS,
  type SimulatorOptions,
  type StepOutcome,
} from './testing/simulator-loop.js';
