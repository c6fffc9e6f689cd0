//! The API calls the controllers make, as small interfaces, and their implementation on the runtime's one client.

import { type ClientSource, toClient, type Wire } from '@ctrlkit/runtime/client';
import type { V1Lease, V1Node, V1Pod } from '@kubernetes/client-node';

/** The node calls of {@link NodeController} (Go's `v1.NodeInterface`); {@link nodesClient} makes one. */
export interface NodesClient {
  readNode(request: { name: string }): Promise<Wire<V1Node>>;
  createNode(request: { body: Wire<V1Node> }): Promise<Wire<V1Node>>;
  /** A strategic merge patch of the node's status subresource (conditions and addresses merge by type). */
  patchNodeStatus(request: { name: string; body: object }): Promise<Wire<V1Node>>;
}

/** The pod calls of {@link PodController} (Go's `corev1client.PodsGetter`); {@link podsClient} makes one. */
export interface PodsClient {
  /** Replaces the pod's status subresource (`body.metadata.resourceVersion`, when set, guards it). */
  replaceNamespacedPodStatus(request: {
    name: string;
    namespace: string;
    body: Wire<V1Pod>;
  }): Promise<Wire<V1Pod>>;
  deleteNamespacedPod(request: {
    name: string;
    namespace: string;
    gracePeriodSeconds?: number;
    body?: { gracePeriodSeconds?: number; preconditions?: { uid?: string } };
  }): Promise<unknown>;
}

/** The node lease calls (Go's `coordv1.LeaseInterface`); {@link leasesClient} makes one. */
export interface LeasesClient {
  readNamespacedLease(request: { name: string; namespace: string }): Promise<Wire<V1Lease>>;
  createNamespacedLease(request: {
    namespace: string;
    body: Wire<V1Lease>;
  }): Promise<Wire<V1Lease>>;
  replaceNamespacedLease(request: {
    name: string;
    namespace: string;
    body: Wire<V1Lease>;
  }): Promise<Wire<V1Lease>>;
}

const LEASES = 'coordination.k8s.io/v1/leases';

/** {@link NodesClient} on the runtime's client (`manager.client`, or a kubeconfig's default client). */
export function nodesClient(source: ClientSource): NodesClient {
  const client = toClient(source);
  return {
    readNode: ({ name }) => client.get<V1Node>('nodes', name),
    createNode: ({ body }) => client.create('nodes', body),
    patchNodeStatus: ({ name, body }) =>
      client.patch<V1Node>('nodes', name, body, { subresource: 'status', type: 'strategic' }),
  };
}

/** {@link PodsClient} on the runtime's client. */
export function podsClient(source: ClientSource): PodsClient {
  const client = toClient(source);
  return {
    replaceNamespacedPodStatus: ({ namespace, body }) =>
      client.replace('pods', body, { namespace, subresource: 'status' }),
    deleteNamespacedPod: ({ name, namespace, gracePeriodSeconds, body }) =>
      client.delete('pods', name, {
        namespace,
        gracePeriodSeconds: body?.gracePeriodSeconds ?? gracePeriodSeconds,
        preconditions: body?.preconditions,
      }),
  };
}

/** {@link LeasesClient} on the runtime's client; lease renewals skip its rate limit, as the kubelet's have a client of their own. */
export function leasesClient(source: ClientSource): LeasesClient {
  const client = toClient(source);
  return {
    readNamespacedLease: ({ name, namespace }) =>
      client.get<V1Lease>(LEASES, name, { namespace, unthrottled: true }),
    createNamespacedLease: ({ namespace, body }) =>
      client.create(LEASES, body, { namespace, unthrottled: true }),
    replaceNamespacedLease: ({ namespace, body }) =>
      client.replace(LEASES, body, { namespace, unthrottled: true }),
  };
}
