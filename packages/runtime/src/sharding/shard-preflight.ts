//! What a replica checks before it joins a ring: its rights on Leases, and that the ring's live members shard what it shards.

import type { Client, Wire } from '@ctrlkit/client';
import { errorMessage } from '@ctrlkit/core';
import type { V1Lease } from '@kubernetes/client-node';
import { RING_LABEL } from './ring-labels.js';
import { readShardLease } from './ring-membership.js';
import { type ResolvedRing, ringResourcesAnnotation } from './ring-options.js';
import { ShardingError } from './sharding-error.js';

/** The verbs a shard needs on `coordination.k8s.io` Leases of its namespace. */
export const SHARD_LEASE_VERBS = ['get', 'list', 'create', 'update'] as const;

interface AccessReview {
  status?: { allowed?: boolean; reason?: string };
}

/**
 * Asks the API server (SelfSubjectAccessReview) whether this replica may get, list, create
 * and update Leases in the ring's namespace; throws `LeaseForbidden` naming what is missing.
 */
export async function checkShardPermissions(
  client: Client,
  ring: ResolvedRing,
  shard: string,
  signal?: AbortSignal,
): Promise<void> {
  const denied: string[] = [];
  await Promise.all(
    SHARD_LEASE_VERBS.map(async (verb) => {
      const review = (await client.create(
        'authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: {
              namespace: ring.leaseNamespace,
              verb,
              group: 'coordination.k8s.io',
              resource: 'leases',
            },
          },
        },
        { signal },
      )) as AccessReview;
      if (review.status?.allowed !== true) denied.push(verb);
    }),
  );
  if (denied.length > 0) {
    throw new ShardingError(
      'LeaseForbidden',
      ring.ring,
      `shard ${shard} of ring ${ring.ring} may not ${denied.sort().join(', ')} coordination.k8s.io leases in namespace ${ring.leaseNamespace}: grant them to its service account`,
    );
  }
}

/**
 * Throws `RingConflict` when a live member of the ring (a held, unexpired shard Lease by the
 * wall clock) shards other resources: two rings that share a name.
 */
export async function checkRingAgreement(
  client: Client,
  ring: ResolvedRing,
  shard: string,
  signal?: AbortSignal,
): Promise<void> {
  const ours = ringResourcesAnnotation(ring);
  let leases: Array<Wire<V1Lease>>;
  try {
    const list = await client.list<V1Lease>('coordination.k8s.io/v1/leases', {
      namespace: ring.leaseNamespace,
      labelSelector: `${RING_LABEL}=${ring.ring}`,
      signal,
    });
    leases = list.items;
  } catch (error) {
    throw new ShardingError(
      'LeaseForbidden',
      ring.ring,
      `shard ${shard} of ring ${ring.ring} cannot list the ring's Leases in ${ring.leaseNamespace}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  const now = Date.now();
  for (const lease of leases) {
    const record = readShardLease(lease);
    if (record.shard === shard || record.holder === '' || record.resources === ours) continue;
    const renewed = record.renewTime?.getTime() ?? 0;
    if (now - renewed > record.leaseDurationMs) continue;
    throw new ShardingError(
      'RingConflict',
      ring.ring,
      `ring ${ring.ring}: shard ${record.shard} shards ${record.resources || '(unknown)'} but shard ${shard} shards ${ours}; give each ring its own name`,
    );
  }
}
