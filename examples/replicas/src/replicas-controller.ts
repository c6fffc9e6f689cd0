//! The showcase controller: keeps spec.replicas ConfigMaps per ConfigMapSet, with
//! controller expectations so a stale informer cache never makes it create or delete too many.

import type { Logger } from '@ctrlkit/core';
import { BurstReplicas, UIDTrackingControllerExpectations } from '@ctrlkit/expectations';
import { bindUIDTrackingExpectations } from '@ctrlkit/expectations/informer';
import {
  Controller,
  InvalidArgumentError,
  isNotFound,
  SharedInformerFactory,
} from '@ctrlkit/runtime';
import { type Client, type KubeConfigLike, toClient, type Wire } from '@ctrlkit/runtime/client';
import {
  enqueueRequestForOwner,
  isControlledBy,
  newControllerRef,
} from '@ctrlkit/runtime/controller';
import { splitMetaNamespaceKey } from '@ctrlkit/runtime/informers';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { type ConfigMapSet, group, kind, ownerLabel, plural, version } from './configmapset-crd.js';

/** Options of {@link startReplicasController}. */
export interface ReplicasControllerOptions {
  /** The program's one client (`manager.client`, or `createClient(kubeConfig)`). */
  client?: Client;
  /** Instead of `client`, for convenience: this kubeconfig's default client. */
  kubeConfig?: KubeConfigLike;
  /** Watch only this namespace. Default: all. */
  namespace?: string;
  /** Concurrent reconciles. Default 4. */
  workers?: number;
  /** Use controller expectations. Default true; false shows what they prevent. */
  expectations?: boolean;
  logger?: Logger;
}

/** A running replicas controller. */
export interface ReplicasController {
  /** Resolves when the controller has stopped (after the signal given to start fires). */
  readonly done: Promise<void>;
}

/** Starts the controller; it runs until `signal` fires. */
export function startReplicasController(
  options: ReplicasControllerOptions,
  signal: AbortSignal,
): ReplicasController {
  const { workers = 4, expectations: useExpectations = true, logger } = options;
  const source = options.client ?? options.kubeConfig;
  if (source === undefined) throw new InvalidArgumentError('client', 'give options.client');
  const client = toClient(source);
  const factory = new SharedInformerFactory(client, {
    ...(options.namespace !== undefined && { namespace: options.namespace }),
  });
  const owners = factory.forResource<ConfigMapSet>({
    group,
    version,
    resource: plural,
  });
  const configMaps = factory.forResource<Wire<V1ConfigMap>>('v1/configmaps', {
    labelSelector: ownerLabel,
  });
  const ownerLister = factory.lister<ConfigMapSet>({
    group,
    version,
    resource: plural,
  });
  const configMapLister = factory.lister<Wire<V1ConfigMap>>('v1/configmaps', {
    labelSelector: ownerLabel,
  });
  const expectations = new UIDTrackingControllerExpectations();
  if (useExpectations) bindUIDTrackingExpectations(configMaps, expectations, { ownerKind: kind });

  const reconcile = async (key: string): Promise<void> => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const owner = ownerLister.namespace(namespace).get(name);
    if (owner === undefined || owner.metadata.deletionTimestamp) {
      expectations.deleteExpectations(key);
      return;
    }
    // The barrier: until the cache has shown our last writes, it cannot be trusted.
    if (useExpectations && !expectations.satisfiedExpectations(key)) return;
    const owned = configMapLister
      .namespace(namespace)
      .list({ matchLabels: { [ownerLabel]: name } })
      .filter((cm) => isControlledBy(cm, owner) && !cm.metadata?.deletionTimestamp);
    const diff = owned.length - owner.spec.replicas;
    const writes = { client, expectations: useExpectations ? expectations : undefined };
    if (diff < 0) {
      await createReplicas(writes, key, namespace, owner, Math.min(-diff, BurstReplicas));
    } else if (diff > 0) {
      const victims = owned.slice(0, Math.min(diff, BurstReplicas));
      await deleteReplicas(writes, key, namespace, victims);
    }
  };

  const controller = new Controller({
    name: 'configmapset',
    reconcile,
    maxConcurrentReconciles: workers,
    ...(logger !== undefined && { logger }),
  })
    .watch(owners)
    .watch(configMaps, { mapToKeys: enqueueRequestForOwner({ kind, group }) });
  factory.start(signal);
  return { done: controller.run(signal) };
}

/** How a reconcile writes: the client, and the expectations to raise (none when they are off). */
interface ReplicaWrites {
  readonly client: Client;
  readonly expectations: UIDTrackingControllerExpectations | undefined;
}

/** Creates `count` ConfigMaps for `owner` in `namespace`, expecting their add events first. */
async function createReplicas(
  { client, expectations }: ReplicaWrites,
  key: string,
  namespace: string,
  owner: ConfigMapSet,
  count: number,
): Promise<void> {
  expectations?.expectCreations(key, count);
  await settleAll(
    Array.from({ length: count }, async () => {
      try {
        await client.create('configmaps', ownedConfigMap(owner), { namespace });
      } catch (error) {
        // The add event will never come: lower the expectation ourselves.
        expectations?.creationObserved(key);
        throw error;
      }
    }),
  );
}

/** Deletes `victims` in `namespace`, expecting their delete events first; one already gone is no error. */
async function deleteReplicas(
  { client, expectations }: ReplicaWrites,
  key: string,
  namespace: string,
  victims: Wire<V1ConfigMap>[],
): Promise<void> {
  const victimKeys = victims.map((cm) => `${namespace}/${cm.metadata?.name}`);
  expectations?.expectDeletions(key, victimKeys);
  await settleAll(
    victims.map(async (cm, i) => {
      try {
        await client.delete('configmaps', cm.metadata?.name ?? '', { namespace });
      } catch (error) {
        if (isNotFound(error)) return; // already gone: its delete event lowers it
        expectations?.deletionObserved(key, victimKeys[i] ?? '');
        throw error;
      }
    }),
  );
}

/** A new ConfigMap controlled by `owner`, with its `spec.data` and the entry `owner`. */
function ownedConfigMap(owner: ConfigMapSet): Wire<V1ConfigMap> {
  return {
    metadata: {
      generateName: `${owner.metadata.name}-`,
      labels: { [ownerLabel]: owner.metadata.name },
      ownerReferences: [newControllerRef(owner, { group, version, kind })],
    },
    data: { ...owner.spec.data, owner: owner.metadata.name },
  };
}

/** Waits for every promise; rethrows the first failure once all have settled. */
async function settleAll(promises: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
