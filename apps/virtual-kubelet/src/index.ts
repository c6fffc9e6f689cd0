/**
 * `@ctrlkit/virtual-kubelet`: the wiring of `ctrlkit-virtual-kubelet`, for embedding and
 * tests. The node and pod controllers are `@ctrlkit/node-controller`'s; here are the flag
 * table ({@link parseFlags}, {@link usage}), the mock and process providers, the kubelet API
 * server (logs, `/metrics/resource`) and {@link buildVirtualKubelet}, which wires them on a
 * runtime `Manager`.
 *
 * ```ts
 * import { buildVirtualKubelet, parseFlags } from '@ctrlkit/virtual-kubelet';
 *
 * const flags = parseFlags(process.argv.slice(2));
 * await runVirtualKubelet(buildVirtualKubelet(flags, logger), flags.startupTimeoutMs, signal);
 * ```
 *
 * @packageDocumentation
 */

export {
  DEFAULT_TAINT_KEY,
  FLAGS,
  type Flags,
  type NodeTaint,
  OPERATING_SYSTEMS,
  parseFlags,
  TAINT_EFFECTS,
  usage,
} from './flags.js';
export {
  type KubeletApiOptions,
  type KubeletApiProvider,
  resourceMetrics,
  startKubeletApiServer,
} from './kubelet-api/kubelet-api-server.js';
export { type ServingCert, selfSignedCert } from './kubelet-api/self-signed-cert.js';
export { type ProviderConfig, readProviderConfig } from './provider-config.js';
export type { CdiOptions } from './providers/cdi-edits.js';
export { MockProvider, type MockProviderOptions } from './providers/mock-provider.js';
export {
  INITIAL_RESTART_BACKOFF_MS,
  LOG_BUFFER_BYTES,
  MAX_RESTART_BACKOFF_MS,
  ProcessProvider,
  type ProcessProviderOptions,
} from './providers/process-provider.js';
export { DEFAULT_MOCK_CAPACITY, type ProviderCapacity } from './providers/provider-capacity.js';
export type { StatsSummary } from './providers/stats-summary.js';
export {
  buildVirtualKubelet,
  defaultInternalIP,
  runVirtualKubelet,
  StartupTimeoutError,
  type VirtualKubelet,
} from './run.js';
