//! What the controller needs of the cluster, for a client of your own (or a test's wrapper that counts calls).

import type { KubeConfig, V1Node, V1ResourceSlice } from '@kubernetes/client-node';

/** Preconditions of a delete. */
export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * What the controller needs to reach the cluster. Objects are plain JSON as the apiserver
 * sends them (attribute `int`, timestamps as RFC 3339 strings), which client-node's model
 * classes would rename. Failed calls reject with the runtime's `ApiStatusError` (HTTP
 * status as `statusCode`, the apiserver's Status as `status`) or a connection error.
 * `newKubeClient` makes one from a KubeConfig; tests wrap one to count calls.
 */
export interface KubeClient {
  /** For the informer's LIST and WATCH. */
  readonly kubeConfig: KubeConfig;
  createResourceSlice(slice: V1ResourceSlice): Promise<V1ResourceSlice>;
  updateResourceSlice(slice: V1ResourceSlice): Promise<V1ResourceSlice>;
  deleteResourceSlice(name: string, preconditions: DeletePreconditions): Promise<void>;
  readNode(name: string): Promise<V1Node>;
}
