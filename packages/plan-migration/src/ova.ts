/**
 * `@ctrlkit/plan-migration/ova`: the source adapter of Providers of `spec.type: 'ova'`, whose
 * inventory is read from an OVA catalog folder (Forklift's `plan/adapter/ovfbase` and
 * `cmd/provider-common/ovf`).
 *
 * - {@link OvaInventory}: scans the catalog (`*.ova` archives and `*.ovf` files), re-parsing
 *   only what changed; VM, disk and network ids as upstream computes them.
 * - {@link OvaSource}: the {@link OvaInventory} as a `SourceAdapter` (cold only; virt-v2v
 *   copies the disks).
 * - {@link inspectOvaProvider}: the Provider's conditions (for the ProviderController's
 *   inspectors).
 * - The parts: {@link parseOvf}, {@link listCatalog}, {@link readAppliance},
 *   {@link isValidUUID}; errors: {@link OvaError}.
 *
 * Fixtures (OVF descriptors per exporter, a catalog folder writer) are in
 * `@ctrlkit/plan-migration/testing`.
 *
 * A first program:
 * ```ts
 * import type { Provider } from '@ctrlkit/plan-migration/api';
 * import { inspectOvaProvider, OvaInventory, OvaSource } from '@ctrlkit/plan-migration/ova';
 *
 * const inventory = new OvaInventory({ catalogPath: '/ova' }); // shared by the check and the adapter
 * const ova = new OvaSource({ inventory });
 * const sources = (provider: Provider) => (provider.spec.type === 'ova' ? ova : undefined);
 * const { conditions, phase } = await inspectOvaProvider(provider, { inventory });
 * ```
 *
 * @packageDocumentation
 */

export { isValidUUID } from './ova/ids.js';
export {
  inspectOvaProvider,
  type OvaProviderCheckOptions,
  type OvaProviderInspection,
} from './ova/inspect-provider.js';
export {
  applianceInventory,
  DEFAULT_OVA_CATALOG_PATH,
  DEFAULT_OVA_RESCAN_AFTER_MS,
  type OvaCatalog,
  type OvaDisk,
  OvaInventory,
  type OvaInventoryOptions,
  type OvaNetwork,
  type OvaProblem,
} from './ova/inventory.js';
export { OvaError, type OvaErrorReason } from './ova/ova-error.js';
export { OvaSource, type OvaSourceOptions, V2V_SOURCE_OVA } from './ova/ova-source.js';
export {
  type ExportSource,
  type OvfDisk,
  type OvfEnvelope,
  type OvfFile,
  type OvfItem,
  type OvfNetwork,
  type OvfVirtualSystem,
  parseOvf,
  ResourceType,
  unitBytes,
} from './ova/ovf-parser.js';
export {
  type NfsShare,
  type OvaProviderCatalog,
  OvaProviderCatalogs,
  type OvaProviderCatalogsOptions,
  parseNfsShare,
} from './ova/provider-catalogs.js';
export {
  type CatalogFile,
  DEFAULT_OVA_MIN_FILE_AGE_MS,
  listCatalog,
  OVA_MAX_DEPTH,
  OVF_MAX_DEPTH,
  readAppliance,
} from './ova/scan.js';
