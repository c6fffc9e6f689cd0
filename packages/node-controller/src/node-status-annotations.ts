//! The annotations in which the NodeController keeps what it applied last, for its three-way patch.

/** Annotation holding the object metadata the controller applied last. */
export const LAST_APPLIED_OBJECT_META_ANNOTATION = 'virtual-kubelet.io/last-applied-object-meta';
/** Annotation holding the node status the controller applied last. */
export const LAST_APPLIED_NODE_STATUS_ANNOTATION = 'virtual-kubelet.io/last-applied-node-status';
