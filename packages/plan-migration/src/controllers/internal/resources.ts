//! The forklift resources as informer resources, and the shared options of the resource controllers.

import type { Clock, Logger } from '@ctrlkit/core';
import type { SharedInformerFactory } from '@ctrlkit/runtime';
import type { KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '../../crds.js';

/** The group/version/resource of a forklift kind. */
export const forkliftResource = (kind: keyof typeof PLURALS) => ({
  group: GROUP,
  version: VERSION,
  resource: PLURALS[kind],
});

/** Options every resource controller takes. */
export interface ResourceControllerOptions {
  /** Where the resources live. Required. */
  kubeConfig: KubeConfig;
  /** The informers to use (started by whoever owns them). Default: a factory of its own, started by `run`. */
  informerFactory?: SharedInformerFactory;
  clock?: Clock;
  logger?: Logger;
}

/** A reference with an optional namespace, resolved against the referrer's namespace. */
export function refKey(
  ref: { namespace?: string; name?: string } | undefined,
  defaultNamespace: string,
): { namespace: string; name: string } | undefined {
  if (!ref?.name) return undefined;
  return { namespace: ref.namespace || defaultNamespace, name: ref.name };
}
