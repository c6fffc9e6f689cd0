//! The node Lease: where it lives and how it is written.

/** The namespace of node leases. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Tries of one lease update before the round gives up. */
export const MAX_LEASE_UPDATE_ATTEMPTS = 5;
