//! The API calls the controller makes: ResourceSlice create/update/delete and a Node read.

import { type ClientSource, toClient } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import type { KubeClient } from './adapter.js';

const SLICES = 'resource.k8s.io/v1/resourceslices';

/**
 * A {@link KubeClient} on the runtime's client (`manager.client`, or a kubeconfig's
 * default client): its rate limit, metrics, User-Agent and retries apply.
 */
export function newKubeClient(source: ClientSource): KubeClient {
  const client = toClient(source);
  return {
    client,
    createResourceSlice: (body) => client.create(SLICES, body),
    updateResourceSlice: (body) => client.replace(SLICES, body),
    deleteResourceSlice: async (name, preconditions) => {
      await client.delete(SLICES, name, { preconditions });
    },
    readNode: (name) => client.get<V1Node>('nodes', name),
  };
}
