//! A ring at a glance: its sharder, each shard's Lease and how many objects it holds (what `ctrlkit-shards` prints).

import {
  type Client,
  formatGroupVersionResource,
  type ResourceLike,
  toGroupVersionResource,
} from '@ctrlkit/client';
import type { V1Lease } from '@kubernetes/client-node';
import { drainLabel, RING_LABEL, shardLabel } from './ring-labels.js';
import { readShardLease } from './ring-membership.js';
import { sharderLeaseName } from './sharder.js';

/** What {@link readRingStatus} reads. */
export interface RingStatusOptions {
  ring: string;
  leaseNamespace: string;
  /** The ring's resources, whose objects are counted. */
  resources: readonly ResourceLike[];
  /** Count only objects of this namespace. Default: all. */
  namespace?: string;
  /** The time to judge Leases by, in ms since the epoch. Default: now. */
  now?: number;
}

/** One shard of a {@link RingStatus}. */
export interface ShardStatus {
  name: string;
  holder: string;
  renewTime: string;
  leaseDurationSeconds: number;
  /** Held, and renewed within its duration by the wall clock. */
  alive: boolean;
  /** Objects labelled with it. */
  objects: number;
  /** Of those, how many carry the drain label. */
  draining: number;
}

/** A ring as the API server holds it. */
export interface RingStatus {
  ring: string;
  /** Who leads the sharding (`''` when nobody). */
  sharder: string;
  shards: ShardStatus[];
  /** Objects without a shard label. */
  unassigned: number;
  /** Objects labelled with a shard that has no Lease. */
  orphaned: number;
}

/** Reads the ring's Leases and counts its objects per shard (LISTs of metadata only). */
export async function readRingStatus(
  client: Client,
  options: RingStatusOptions,
): Promise<RingStatus> {
  const now = options.now ?? Date.now();
  const leases = await client.list<V1Lease>('coordination.k8s.io/v1/leases', {
    namespace: options.leaseNamespace,
    labelSelector: `${RING_LABEL}=${options.ring}`,
  });
  let sharder = '';
  try {
    const lease = await client.get<V1Lease>(
      'coordination.k8s.io/v1/leases',
      sharderLeaseName(options.ring),
      {
        namespace: options.leaseNamespace,
      },
    );
    sharder = lease.spec?.holderIdentity ?? '';
  } catch {
    sharder = '';
  }
  const shards = new Map<string, ShardStatus>();
  for (const lease of leases.items) {
    const record = readShardLease(lease);
    const renewed = record.renewTime?.getTime() ?? 0;
    shards.set(record.shard, {
      name: record.shard,
      holder: record.holder,
      renewTime: lease.spec?.renewTime ?? '',
      leaseDurationSeconds: record.leaseDurationMs / 1000,
      alive: record.holder === record.shard && now - renewed < record.leaseDurationMs,
      objects: 0,
      draining: 0,
    });
  }
  const label = shardLabel(options.ring);
  const drain = drainLabel(options.ring);
  let unassigned = 0;
  let orphaned = 0;
  for (const resource of options.resources) {
    let next: string | undefined;
    do {
      const page = await client.list(formatGroupVersionResource(toGroupVersionResource(resource)), {
        namespace: options.namespace,
        limit: 500,
        continue: next,
      });
      for (const object of page.items) {
        const labels = object.metadata?.labels ?? {};
        const shard = labels[label];
        if (shard === undefined || shard === '') {
          unassigned++;
          continue;
        }
        const status = shards.get(shard);
        if (status === undefined) {
          orphaned++;
          continue;
        }
        status.objects++;
        if (labels[drain] !== undefined) status.draining++;
      }
      next = page.metadata?.continue || undefined;
    } while (next !== undefined);
  }
  return {
    ring: options.ring,
    sharder,
    shards: [...shards.values()].sort((a, b) => a.name.localeCompare(b.name)),
    unassigned,
    orphaned,
  };
}

/** The status as a table a person reads. */
export function formatRingStatus(status: RingStatus): string {
  const rows = [
    ['SHARD', 'STATE', 'OBJECTS', 'DRAINING', 'RENEWED', 'LEASE'],
    ...status.shards.map((shard) => [
      shard.name,
      shard.alive ? 'ready' : shard.holder === '' ? 'released' : 'expired',
      String(shard.objects),
      String(shard.draining),
      shard.renewTime,
      `${shard.leaseDurationSeconds}s`,
    ]),
  ];
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const table = rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  return [
    `ring ${status.ring}   sharder: ${status.sharder || '(none)'}`,
    ...table,
    `unassigned: ${status.unassigned}   labelled with an unknown shard: ${status.orphaned}`,
  ].join('\n');
}
