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
    createResourceSlice: (body, options) =>
      client.create(SLICES, body, { signal: options?.signal }),
    updateResourceSlice: (body, options) =>
      client.replace(SLICES, body, { signal: options?.signal }),
    deleteResourceSlice: async (name, preconditions, options) => {
      await client.delete(SLICES, name, { preconditions, signal: options?.signal });
    },
    readNode: (name, options) => client.get<V1Node>('nodes', name, { signal: options?.signal }),
  };
}
