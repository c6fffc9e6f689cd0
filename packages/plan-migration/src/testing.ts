//! Test helpers: an in-memory destination, a scripted hook runner, builders of plans and inventories, and simulators of CDI, KubeVirt, the kubelet and the Job controller.

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
export { PlanHarness, type PlanHarnessOptions } from './testing/plan-harness.js';
export { PodJobSimulator, type PodJobSimulatorOptions } from './testing/pod-job-simulator.js';
export { ScriptedHookRunner } from './testing/scripted-hook-runner.js';
export {
  DEFAULT_SIMULATOR_STEP_MS,
  type SimulatorOptions,
  type StepOutcome,
} from './testing/simulator-loop.js';
