/**
 * `@ctrlkit/node-controller`: virtual-kubelet's `node` package for TypeScript. A virtual
 * Node backed by something other than a machine, and the pods bound to it kept in step
 * with that backend. One concept, one root; a fake clientset for tests is
 * `@ctrlkit/node-controller/testing`.
 *
 * - **What you implement** (`adapter.ts`): {@link NodeProvider} (heartbeat and node
 *   status; {@link NaiveNodeProvider} is the trivial one), {@link PodLifecycleHandler} (run,
 *   update, delete and report pods) and optionally {@link PodNotifier} (push status changes).
 * - **The node**: {@link NodeController} registers the Node, pings the provider, patches
 *   its status three-way and renews its Lease in `kube-node-lease`.
 * - **The pods**: {@link PodController} watches the pods bound to the node and drives the
 *   provider (env resolved from ConfigMaps, Secrets and field refs before each create).
 * - **DRA, the node side** (`@ctrlkit/node-controller/dra`): a `PluginWatcher` registers the
 *   DRA kubelet plugins; a `DraManager`, given as the pod controller's `resourcePreparer`
 *   ({@link PodResourcePreparer}), prepares a pod's claims before `createPod`, which then
 *   gets each container's CDI devices ({@link PodResources}).
 * - **Provider errors**: {@link notFound}, {@link invalidInput}, {@link ErrdefsError}, so the
 *   controllers know what is done and what to retry; {@link NodeControllerError}.
 *
 * A first program:
 * ```ts
 * import { NaiveNodeProvider, NodeController, PodController } from '@ctrlkit/node-controller';
 *
 * const node = new NodeController({
 *   provider: new NaiveNodeProvider(),
 *   node: { metadata: { name: 'vk' } },
 *   nodes: core, // client-node's CoreV1Api
 *   lease: { client: coordination },
 * });
 * const pods = new PodController({ podClient: core, podInformer, configMapInformer, secretInformer,
 *   serviceInformer, eventRecorder, provider });
 * void node.run(signal);
 * void pods.run(signal, 4);
 * await Promise.all([node.ready, pods.ready]);
 * ```
 *
 * @packageDocumentation
 */

export { defaultRetryFunc, MaxRetries, type ShouldRetryFunc } from '@ctrlkit/workqueue';
export {
  isPodNotifier,
  type NodeProvider,
  type PodLifecycleHandler,
  type PodNotifier,
  type PodResources,
} from './adapter.js';
export type {
  AttachIO,
  ContainerExecProvider,
  PortForwardProvider,
  TermSize,
} from './container-exec.js';
export {
  asInvalidInput,
  asNotFound,
  ErrdefsError,
  type ErrdefsReason,
  invalidInput,
  isInvalidInput,
  notFound,
} from './errdefs.js';
export {
  type LeasesClient,
  leasesClient,
  type NodesClient,
  nodesClient,
  type PodsClient,
  podsClient,
} from './kube-clients.js';
export {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_RENEW_INTERVAL_FRACTION,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
  type ErrorHandler,
  NodeController,
  type NodeControllerOptions,
  type NodeLeaseOptions,
  updateNodeStatus,
} from './node-controller.js';
export { NodeControllerError, type NodeControllerErrorReason } from './node-controller-error.js';
export {
  MAX_LEASE_UPDATE_ATTEMPTS,
  NODE_LEASE_NAMESPACE,
} from './node-lease.js';
export { NaiveNodeProvider, NaiveNodeProviderV2, newNaiveNodeProvider } from './node-provider.js';
export {
  LAST_APPLIED_NODE_STATUS_ANNOTATION,
  LAST_APPLIED_OBJECT_META_ANNOTATION,
} from './node-status-annotations.js';
export { PodController } from './pod-controller.js';
export {
  type InformerLike,
  type KnownPod,
  POD_STATUS_UPDATE_POLL_ATTEMPTS,
  POD_STATUS_UPDATE_POLL_INTERVAL_MS,
  type PodControllerConfig,
  type PodEventFilterFunc,
  type PodResourcePreparer,
} from './pod-controller-config.js';
export { ProviderTimeoutError } from './provider-timeout-error.js';
