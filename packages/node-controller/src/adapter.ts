//! What a provider implements: the node's heartbeat and status (NodeProvider), and its pods (PodLifecycleHandler, PodNotifier).

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node, V1Pod, V1PodStatus } from '@kubernetes/client-node';

/**
 * The backend of a virtual node (virtual-kubelet's `NodeProvider`).
 */
export interface NodeProvider {
  /**
   * Checks that the backend is alive; a light heartbeat, called every ping interval.
   * Rejecting marks the node unhealthy: status updates and lease renewals stop until it recovers.
   */
  ping(signal: AbortSignal): Promise<void>;
  /**
   * Registers `callback`, to be called with the whole node whenever its status changes.
   * Must not block. The controller copies the node's status, labels and annotations.
   */
  notifyNodeStatus(signal: AbortSignal, callback: (node: Wire<V1Node>) => void): void;
}

/**
 * What the node prepared for a pod, given to `createPod` besides the pod: for now the CDI
 * devices of its DRA claims (the kubelet's `ContainerInfo.CDIDevices`).
 */
export interface PodResources {
  /**
   * Fully qualified CDI device IDs (`vendor/class=name`) by container name, from the
   * container's `resources.claims`; containers without devices are left out.
   */
  readonly cdiDevices: Readonly<Record<string, readonly string[]>>;
}

/**
 * The backend that runs the node's pods (virtual-kubelet's `PodLifecycleHandler`). Errors
 * should be classified with `notFound(...)` / `invalidInput(...)` so the controller knows
 * what is done and what to retry.
 */
export interface PodLifecycleHandler {
  /**
   * Deploys `pod` (its env already resolved). The controller passes a copy it keeps no
   * reference to: the provider may keep it (as upstream's providers keep the pointer).
   * `resources` is what the node prepared for it (CDI devices of its DRA claims); undefined for
   * a pod without claims or a controller without a `resourcePreparer`. A provider that ignores
   * it still type-checks.
   */
  createPod(signal: AbortSignal, pod: Wire<V1Pod>, resources?: PodResources): Promise<void>;
  /** Updates `pod` in the backend; like `createPod`'s, `pod` is the provider's to keep. */
  updatePod(signal: AbortSignal, pod: Wire<V1Pod>): Promise<void>;
  /**
   * Deletes `pod`; may be called more than once. Afterwards the provider reports a terminal
   * status (every container terminated). Throwing NotFound counts as deleted.
   */
  deletePod(signal: AbortSignal, pod: Wire<V1Pod>): Promise<void>;
  /** The pod as the backend has it; `undefined` or a NotFound error when it has none. Treat it as immutable. */
  getPod(signal: AbortSignal, namespace: string, name: string): Promise<Wire<V1Pod> | undefined>;
  /** The pod's status; `undefined` or a NotFound error when the backend has no such pod. */
  getPodStatus(
    signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1PodStatus> | undefined>;
  /** Every pod the backend runs. */
  getPods(signal: AbortSignal): Promise<Wire<V1Pod>[]>;
}

/**
 * An optional extension of a {@link PodLifecycleHandler} that pushes status changes
 * (virtual-kubelet's `PodNotifier`). Without it, the controller polls `getPodStatus`.
 */
export interface PodNotifier {
  /**
   * Registers `callback`, to be called with the whole pod (status up to date) whenever its
   * status changes. Must not block; the callback treats the pod as read-only.
   */
  notifyPods(signal: AbortSignal, callback: (pod: Wire<V1Pod>) => void): void;
}

/** True when `provider` also implements {@link PodNotifier}. */
export function isPodNotifier(provider: unknown): provider is PodNotifier {
  return typeof (provider as Partial<PodNotifier> | null)?.notifyPods === 'function';
}
