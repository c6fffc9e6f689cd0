//! The node Lease: where it lives and how it is written.

import type { CoordinationV1Api } from '@kubernetes/client-node';

/** The namespace of node leases. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Tries of one lease update before the round gives up. */
export const MAX_LEASE_UPDATE_ATTEMPTS = 5;
/** The lease operations the controller needs; client-node's `CoordinationV1Api` satisfies it. */
export type LeasesClient = Pick<
  CoordinationV1Api,
  'readNamespacedLease' | 'createNamespacedLease' | 'replaceNamespacedLease'
>;
