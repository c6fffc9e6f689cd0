//! The API calls the controller makes: ResourceSlice create/update/delete and a Node read.

import { RestClient } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1Node, V1ResourceSlice } from '@kubernetes/client-node';

const SLICES = '/apis/resource.k8s.io/v1/resourceslices';

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
 * {@link newKubeClient} makes one from a KubeConfig; tests wrap one to count calls.
 */
export interface KubeClient {
  /** For the informer's LIST and WATCH. */
  readonly kubeConfig: KubeConfig;
  createResourceSlice(slice: V1ResourceSlice): Promise<V1ResourceSlice>;
  updateResourceSlice(slice: V1ResourceSlice): Promise<V1ResourceSlice>;
  deleteResourceSlice(name: string, preconditions: DeletePreconditions): Promise<void>;
  readNode(name: string): Promise<V1Node>;
}

/** A {@link KubeClient} on the runtime's `RestClient` (the KubeConfig's TLS and credentials). */
export function newKubeClient(kubeConfig: KubeConfig): KubeClient {
  const rest = new RestClient(kubeConfig);
  const slice = (name: string | undefined) => `${SLICES}/${encodeURIComponent(name ?? '')}`;
  return {
    kubeConfig,
    createResourceSlice: async (body) =>
      (await rest.requestJson('POST', SLICES, body)) as V1ResourceSlice,
    updateResourceSlice: async (body) =>
      (await rest.requestJson('PUT', slice(body.metadata?.name), body)) as V1ResourceSlice,
    deleteResourceSlice: async (name, preconditions) => {
      await rest.requestJson('DELETE', slice(name), {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions,
      });
    },
    readNode: async (name) =>
      (await rest.requestJson('GET', `/api/v1/nodes/${encodeURIComponent(name)}`)) as V1Node,
  };
}
