//! A sharded controller's reconciler, guarded: it reconciles only its shard's objects while a member, and acknowledges a drain instead of reconciling.

import type { Client, KubeObject, ResourceLike, Wire } from '@ctrlkit/client';
import { isNotFound, type Logger, statusCode } from '@ctrlkit/core';
import { objectKey } from '../controller/keys.js';
import type { Reconciler } from '../controller/reconciler.js';
import type { SharedIndexInformer } from '../informers/shared-informer.js';
import { DRAIN_VALUE, drainLabel, jsonPointerSegment, shardLabel } from './ring-labels.js';

/** What {@link guardReconciler} needs. */
export interface ShardGuardOptions {
  /** The client that acknowledges drains. */
  client: Pick<Client, 'patch'>;
  ring: string;
  shardName: string;
  /** The shard's informer of `resource` (its objects only). */
  informer: Pick<SharedIndexInformer<Wire<KubeObject>>, 'indexer'>;
  resource: ResourceLike;
  /** The user's reconciler. */
  reconcile: Reconciler;
  logger: Logger;
}

/**
 * Reconciles only `shardName`'s objects, only while the shard is a member, and acknowledges a
 * drain instead of reconciling. Once `signal` (the shard's membership) aborts, keys the
 * controller still hands out (its queue drains after a stop) are dropped, not reconciled: a
 * shard that lost its Lease must be done before the Lease expires and a successor owns them.
 */
export function guardReconciler(options: ShardGuardOptions): Reconciler {
  const { informer, shardName, reconcile } = options;
  const shard = shardLabel(options.ring);
  const drain = drainLabel(options.ring);
  return async (key, signal) => {
    if (signal.aborted) return;
    const object = informer.indexer.getByKey(key);
    const labels = object?.metadata?.labels ?? {};
    // Gone, or moved away: another shard (or none) owns it now.
    if (object === undefined || labels[shard] !== shardName) return;
    if (labels[drain] !== undefined) {
      await acknowledgeDrain(options, object, signal);
      return;
    }
    return reconcile(key, signal);
  };
}

/** Removes the shard and drain labels, only if they still say this shard and drain. */
async function acknowledgeDrain(
  options: ShardGuardOptions,
  object: Wire<KubeObject>,
  signal: AbortSignal,
): Promise<void> {
  const shardPath = `/metadata/labels/${jsonPointerSegment(shardLabel(options.ring))}`;
  const drainPath = `/metadata/labels/${jsonPointerSegment(drainLabel(options.ring))}`;
  try {
    await options.client.patch(
      options.resource,
      object.metadata?.name ?? '',
      [
        { op: 'test', path: shardPath, value: options.shardName },
        { op: 'test', path: drainPath, value: DRAIN_VALUE },
        { op: 'remove', path: shardPath },
        { op: 'remove', path: drainPath },
      ],
      { type: 'json', namespace: object.metadata?.namespace, signal },
    );
    options.logger.debug({ ring: options.ring, object: objectKey(object) }, 'drained');
  } catch (error) {
    // 422: a test failed (labels already changed), 404: gone. Nothing left to hand over.
    if (isNotFound(error) || statusCode(error) === 422) return;
    throw error;
  }
}
