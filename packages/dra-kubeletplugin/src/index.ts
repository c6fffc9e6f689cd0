/**
 * `@ctrlkit/dra-kubeletplugin`: the kubelet side of a DRA driver
 * (`k8s.io/dynamic-resource-allocation/kubeletplugin` v0.37). One root:
 *
 * - **The plugin**: implement {@link DRAPlugin} (`prepareResourceClaims`,
 *   `unprepareResourceClaims`, `handleError`, optional `watchHealthStatus`);
 *   {@link startPlugin} ({@link PluginOptions}) serves it to the kubelet over gRPC on Unix
 *   sockets (registration, `v1.DRAPlugin` and `v1beta1.DRAPlugin`, DRAResourceHealth) and
 *   gives a {@link Helper}: `publishResources`, `registrationStatus`, `stop`.
 * - **Checks**: before the plugin sees a claim, the helper reads it and checks its UID, its
 *   allocation and its driver; a failed check is that claim's {@link ClaimError}.
 * - **CDI**: device IDs ({@link parseQualifiedName}, {@link formatQualifiedName}), spec files
 *   ({@link writeSpec}, {@link removeSpec}, {@link readSpecDirs}, {@link findDevice}),
 *   {@link CdiError}.
 *
 * A first program:
 * ```ts
 * import { startPlugin } from '@ctrlkit/dra-kubeletplugin';
 *
 * const helper = await startPlugin({ driverName: 'gpu.example.com', client, nodeName }, {
 *   async prepareResourceClaims(claims) { return new Map(claims.map((c) => [c.metadata!.uid!, { devices: [] }])); },
 *   async unprepareResourceClaims(refs) { return new Map(refs.map((r) => [r.uid, null])); },
 *   handleError(error, message) { console.error(message, error); },
 * });
 * await helper.publishResources({ pools: { [nodeName]: { slices: [{ devices: [{ name: 'gpu-0' }] }] } } });
 * await helper.stop();
 * ```
 *
 * @packageDocumentation
 */

export { CdiError, type CdiErrorReason } from './cdi/cdi-error.js';
export {
  CDI_VERSIONS,
  type CdiContainerEdits,
  type CdiDevice,
  type CdiDeviceNode,
  type CdiHook,
  type CdiMount,
  type CdiSpec,
  minimumRequiredVersion,
  validateSpec,
} from './cdi/cdi-spec.js';
export {
  formatQualifiedName,
  isQualifiedName,
  parseQualifiedName,
  type QualifiedName,
  validateClassName,
  validateDeviceName,
  validateVendorName,
} from './cdi/qualified-name.js';
export {
  CDI_DEFAULT_SPEC_DIRS,
  CDI_DYNAMIC_DIR,
  CDI_STATIC_DIR,
  type CdiSpecInput,
  findDevice,
  type LoadedSpec,
  readSpecDirs,
  removeSpec,
  type SpecDirsContent,
  specJson,
  transientSpecName,
  writeSpec,
} from './cdi/spec-files.js';
export { ClaimError, type ClaimErrorReason } from './claim-error.js';
export type {
  Device,
  DeviceHealth,
  DeviceHealthReport,
  DRAPlugin,
  HealthStatus,
  NamespacedObject,
  PrepareResult,
  ResourceClaim,
} from './dra-plugin.js';
export { Helper, startPlugin } from './helper.js';
export {
  KUBELET_PLUGINS_DIR,
  KUBELET_REGISTRY_DIR,
  type PluginOptions,
  type RegistrationStatus,
  UNIX_PATH_MAX,
} from './plugin-options.js';
