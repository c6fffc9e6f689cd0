//! Test helpers: an in-memory destination, a scripted hook runner, and builders of plans and inventories.

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
export { InMemoryDestination, type InMemoryObject } from './testing/in-memory-destination.js';
export { PlanHarness, type PlanHarnessOptions } from './testing/plan-harness.js';
export { ScriptedHookRunner } from './testing/scripted-hook-runner.js';
