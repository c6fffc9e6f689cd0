//! Which shards of a ring are alive, judged from their Leases as this process observes them change.

import type { Wire } from '@ctrlkit/client';
import type { V1Lease } from '@kubernetes/client-node';
import { RING_RESOURCES_ANNOTATION } from './ring-labels.js';

/** What a shard Lease says. */
export interface ShardLeaseRecord {
  /** The shard: the Lease's name. */
  shard: string;
  /** Who holds it: the shard's name while it is a member, `''` once released. */
  holder: string;
  /** How long a holder that stops renewing keeps it, in ms. */
  leaseDurationMs: number;
  /** When it was last renewed (the holder's clock), or undefined. */
  renewTime: Date | undefined;
  /** The resources its replica shards (its `ctrlkit.io/ring-resources` annotation). */
  resources: string;
}

/** Reads a shard Lease. */
export function readShardLease(lease: Wire<V1Lease>): ShardLeaseRecord {
  const spec = lease.spec ?? {};
  return {
    shard: lease.metadata?.name ?? '',
    holder: spec.holderIdentity ?? '',
    leaseDurationMs: (spec.leaseDurationSeconds ?? 0) * 1000,
    renewTime: spec.renewTime === undefined ? undefined : new Date(spec.renewTime),
    resources: lease.metadata?.annotations?.[RING_RESOURCES_ANNOTATION] ?? '',
  };
}

/**
 * The members of a ring, as a leader elector judges a Lease: a shard is alive while its
 * holder is itself and its Lease has changed within its duration **as observed by this
 * process's clock** (the remote `renewTime` is never compared with the local clock, so clock
 * skew between machines does not matter). A released Lease (empty holder) is dead at once; a
 * Lease first seen counts as changed when seen, so a new sharder waits a full duration
 * before it calls a silent shard dead.
 */
export class RingMembership {
  readonly #observed = new Map<string, { raw: string; at: number; record: ShardLeaseRecord }>();

  /** Records the Lease's current state, seen at `now` (ms of the local clock). */
  observe(lease: Wire<V1Lease>, now: number): void {
    const record = readShardLease(lease);
    const raw = JSON.stringify([record.holder, lease.spec?.renewTime, record.leaseDurationMs]);
    const previous = this.#observed.get(record.shard);
    if (previous?.raw === raw) {
      previous.record = record;
      return;
    }
    this.#observed.set(record.shard, { raw, at: now, record });
  }

  /** Forgets a deleted Lease. */
  forget(shard: string): void {
    this.#observed.delete(shard);
  }

  /** Every Lease seen, by shard. */
  records(): ShardLeaseRecord[] {
    return [...this.#observed.values()].map(({ record }) => record);
  }

  /** True when `shard`'s Lease is known. */
  has(shard: string): boolean {
    return this.#observed.has(shard);
  }

  /** The shards alive at `now` whose Lease passes `accept`, sorted. */
  alive(now: number, accept: (record: ShardLeaseRecord) => boolean = () => true): string[] {
    const alive: string[] = [];
    for (const { at, record } of this.#observed.values()) {
      if (record.holder !== record.shard || record.holder === '') continue;
      if (now - at >= record.leaseDurationMs) continue;
      if (accept(record)) alive.push(record.shard);
    }
    return alive.sort();
  }
}
