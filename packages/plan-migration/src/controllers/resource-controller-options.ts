//! The options every resource controller (provider, map, hook, migration) takes.

import type { Clock, Logger } from '@ctrlkit/core';
import type { SharedInformerFactory } from '@ctrlkit/runtime';
import type { Client, KubeConfigLike } from '@ctrlkit/runtime/client';
import type { ApiGroup } from '../crds.js';

/** Options every resource controller takes. */
export interface ResourceControllerOptions {
  /** Where the resources live: the runtime's one client (`manager.client`). Required unless `kubeConfig` is given. */
  client?: Client;
  /** Instead of `client`, for convenience: this kubeconfig's default client. */
  kubeConfig?: KubeConfigLike;
  /** The informers to use (started by whoever owns them). Default: a factory of its own, started by `run`. */
  informerFactory?: SharedInformerFactory;
  /** The API group of the forklift resources: `forklift.ctrlkit.dev` (default) or Forklift's `forklift.konveyor.io`. */
  apiGroup?: ApiGroup;
  clock?: Clock;
  logger?: Logger;
}
