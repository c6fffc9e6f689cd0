//! A Client, or a kubeconfig to take the one default client of: what the helpers that make requests accept.

import { InvalidArgumentError } from '@ctrlkit/core';
import { Client, createClient } from './client.js';
import type { KubeConfigLike } from './transport.js';

/**
 * Where a helper makes its requests: a {@link Client} (`manager.client`, or one from
 * `createClient`), or, for convenience, a kubeconfig, whose one default client
 * (`createClient(kubeConfig)` with default options, made on first use) is taken.
 */
export type ClientSource = Client | KubeConfigLike;

const defaultClients = new WeakMap<KubeConfigLike, Client>();

/**
 * `source` when it is a {@link Client}; else the default client of the kubeconfig `source`
 * (one per kubeconfig object, so every helper given it shares one pool and one rate
 * limit). Throws `InvalidArgumentError` naming `field` for anything else.
 */
export function toClient(source: ClientSource, field = 'client'): Client {
  if (source instanceof Client) return source;
  if (
    typeof source !== 'object' ||
    source === null ||
    typeof (source as KubeConfigLike).getCurrentCluster !== 'function'
  ) {
    throw new InvalidArgumentError(
      field,
      'must be a Client (createClient, manager.client) or a KubeConfig',
    );
  }
  let client = defaultClients.get(source);
  if (client === undefined) {
    client = createClient(source);
    defaultClients.set(source, client);
  }
  return client;
}
