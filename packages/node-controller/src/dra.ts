/**
 * `@ctrlkit/node-controller/dra`: the virtual node as DRA's node side, as the kubelet's
 * plugin watcher and DRA manager (no Go virtual-kubelet has one).
 *
 * - {@link PluginWatcher} registers the DRA kubelet plugins whose registration sockets
 *   appear in a directory (`GetInfo`, `NotifyRegistrationStatus`; `v1.DRAPlugin`, else
 *   `v1beta1.DRAPlugin`) and keeps a {@link DraPluginClient} per driver.
 * - {@link DraManager}, the `PodController`'s `resourcePreparer`: resolves a pod's claims
 *   ({@link podClaimNames}), waits until each is allocated and reserved for the pod, calls
 *   `NodePrepareResources`, gives each container its CDI device IDs, and unprepares claims no
 *   live pod of the node uses. Why a pod waits: {@link DraError}, as the event
 *   {@link ReasonFailedPrepareDynamicResources}.
 *
 * A first program:
 * ```ts
 * import { PodController } from '@ctrlkit/node-controller';
 * import { DraManager, PluginWatcher } from '@ctrlkit/node-controller/dra';
 *
 * const plugins = new PluginWatcher({ dir: '/var/lib/kubelet/plugins_registry' });
 * const dra = new DraManager({ client, plugins, podInformer });
 * const pods = new PodController({ ...config, podInformer, resourcePreparer: dra });
 * void plugins.run(signal);
 * void dra.run(signal);
 * void pods.run(signal, 4);
 * ```
 *
 * @packageDocumentation
 */

export { type PodClaimName, podClaimNames } from './dra/claim-resolver.js';
export {
  DraError,
  type DraErrorReason,
  ReasonFailedPrepareDynamicResources,
} from './dra/dra-error.js';
export { DraManager, type DraManagerOptions } from './dra/dra-manager.js';
export {
  DRA_PLUGIN_CALL_TIMEOUT_MS,
  DraPluginClient,
  SUPPORTED_DRA_SERVICES,
} from './dra/dra-plugin-client.js';
export {
  DEFAULT_PLUGIN_RESCAN_INTERVAL_MS,
  DEFAULT_PLUGINS_REGISTRY_DIR,
  PluginWatcher,
  type PluginWatcherOptions,
  type RegisteredPlugin,
  validatePluginInfo,
} from './dra/plugin-watcher.js';
