//! The options every resource controller (provider, map, hook, migration) takes.

import type { Clock, Logger } from '@ctrlkit/core';
import type { SharedInformerFactory } from '@ctrlkit/runtime';
import type { KubeConfig } from '@kubernetes/client-node';

/** Options every resource controller takes. */
export interface ResourceControllerOptions {
  /** Where the resources live. Required. */
  kubeConfig: KubeConfig;
  /** The informers to use (started by whoever owns them). Default: a factory of its own, started by `run`. */
  informerFactory?: SharedInformerFactory;
  clock?: Clock;
  logger?: Logger;
}
