//! The API calls the controller makes: ResourceSlice create/update/delete and a Node read.

import { RestClient } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1Node, V1ResourceSlice } from '@kubernetes/client-node';
import type { KubeClient } from './adapter.js';

const SLICES = '/apis/resource.k8s.io/v1/resourceslices';

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
