//! What the controller needs of the cluster, for a client of your own (or a test's wrapper that counts calls).

import type { Client, Wire } from '@ctrlkit/runtime/client';
import type { V1Node, V1ResourceSlice } from '@kubernetes/client-node';

/** Preconditions of a delete. */
export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * What the controller needs to reach the cluster. Objects are plain JSON as the apiserver
 * sends them (`Wire`: attribute `int`, timestamps as RFC 3339 strings), not client-node's
 * model classes, which would rename fields. Failed calls reject with the runtime's
 * `ApiStatusError` (HTTP status as `statusCode`, the apiserver's Status as `status`) or a
 * connection error. `newKubeClient` makes one on the runtime's client; tests wrap one to
 * count calls.
 */
export interface KubeClient {
  /** The runtime's client, for the informer's LIST and WATCH. */
  readonly client: Client;
  /**
   * Each call gets the controller's `signal`, aborted by `stop()` (upstream's cancelled
   * context): a call still waiting for the client's rate limit, or for its answer, is abandoned.
   */
  createResourceSlice(
    slice: Wire<V1ResourceSlice>,
    options?: { signal?: AbortSignal },
  ): Promise<Wire<V1ResourceSlice>>;
  updateResourceSlice(
    slice: Wire<V1ResourceSlice>,
    options?: { signal?: AbortSignal },
  ): Promise<Wire<V1ResourceSlice>>;
  deleteResourceSlice(
    name: string,
    preconditions: DeletePreconditions,
    options?: { signal?: AbortSignal },
  ): Promise<void>;
  readNode(name: string, options?: { signal?: AbortSignal }): Promise<Wire<V1Node>>;
}
