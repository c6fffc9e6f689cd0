//! What a leading sharder knows of its ring (live shards, the hash ring, drains under way) and the one decision it makes per object.

import type { Client, KubeObject, Wire } from '@ctrlkit/client';
import { type Clock, isConflict, isNotFound, type Logger } from '@ctrlkit/core';
import type { V1Lease } from '@kubernetes/client-node';
import type { SharedIndexInformer } from '../informers/shared-informer.js';
import { HashRing } from './hash-ring.js';
import { DRAIN_VALUE, drainLabel, shardLabel } from './ring-labels.js';
import type { RingMembership } from './ring-membership.js';
import type { ResolvedRing } from './ring-options.js';
import { shardKey } from './shard-key.js';
import type { MoveReason, PrometheusShardingMetrics } from './sharding-metrics.js';

/** One resource the sharder labels, with its metadata-only informer. */
export interface ShardedTarget {
  resource: string;
  /** Follows its owner: relabelled without a handshake. */
  controlled: boolean;
  informer: SharedIndexInformer<Wire<KubeObject>>;
}

/** What a {@link RingState} is made of. */
export interface RingStateOptions {
  ring: ResolvedRing;
  client: Client;
  membership: RingMembership;
  /** The `ctrlkit.io/ring-resources` a shard's Lease must carry to be on the ring. */
  accept: string;
  tokensPerShard: number | undefined;
  targets: ShardedTarget[];
  metrics: PrometheusShardingMetrics;
  clock: Clock;
  logger: Logger;
  /** Queues an object key (`<target index>|<namespace/name>`) for {@link RingState.assign}. */
  enqueue(key: string): void;
}

/**
 * The leading sharder's view of one ring. Keys are `<target index>|<namespace>/<name>`.
 * `assign(key)` is the whole policy: label an unassigned object, clear a stale drain, move
 * from a dead or unknown shard (or a controlled object) at once, else start a drain and wait
 * for the old shard's acknowledgement.
 */
export class RingState {
  readonly targets: ShardedTarget[];
  readonly #o: RingStateOptions;
  readonly #shardLabel: string;
  readonly #drainLabel: string;
  #hashRing: HashRing;
  #alive = new Set<string>();
  readonly #drainsStarted = new Map<string, number>();
  readonly #seen = new Map<string, number>();
  readonly #conflicts = new Set<string>();

  constructor(options: RingStateOptions) {
    this.#o = options;
    this.targets = options.targets;
    this.#shardLabel = shardLabel(options.ring.ring);
    this.#drainLabel = drainLabel(options.ring.ring);
    this.#hashRing = new HashRing([], options.tokensPerShard);
  }

  /** The live shards, sorted. */
  members(): readonly string[] {
    return this.#hashRing.shards;
  }

  /** Records a shard Lease as seen now, and rebuilds the ring if its members changed. */
  observeLease(lease: Wire<V1Lease>): void {
    this.#o.membership.observe(lease, this.#o.clock.now());
    this.refresh();
  }

  /** Forgets a deleted shard Lease. */
  forgetLease(shard: string): void {
    this.#o.membership.forget(shard);
    this.refresh();
  }

  /** Notes when an unassigned object was first seen (for the assignment delay). */
  seen(key: string, object: Wire<KubeObject>): void {
    if (object.metadata?.labels?.[this.#shardLabel] === undefined) {
      this.#seen.set(key, this.#o.clock.now());
    }
  }

  /** Recomputes the live shards (Leases lapse without events); on a change, re-examines every object. */
  refresh(): void {
    const { membership, clock, accept, logger, ring } = this.#o;
    const alive = membership.alive(clock.now(), (record) => {
      if (record.resources === accept) return true;
      if (!this.#conflicts.has(record.shard)) {
        this.#conflicts.add(record.shard);
        logger.error(
          { ring: ring.ring, shard: record.shard, shards: record.resources, expected: accept },
          `ring ${ring.ring}: shard ${record.shard} shards ${record.resources || '(unknown)'}, not ${accept}: left out of the ring (two rings with one name?)`,
        );
      }
      return false;
    });
    this.#countObjects();
    if (alive.join(',') === [...this.#alive].join(',')) return;
    logger.info({ ring: ring.ring, shards: alive }, 'ring changed');
    this.#alive = new Set(alive);
    this.#hashRing = new HashRing(alive, this.#o.tokensPerShard);
    this.targets.forEach((target, index) => {
      for (const key of target.informer.indexer.listKeys()) this.#o.enqueue(`${index}|${key}`);
    });
  }

  /** Brings one object's labels in line with the ring (see the class). */
  async assign(key: string): Promise<void> {
    const separator = key.indexOf('|');
    const target = this.targets[Number(key.slice(0, separator))];
    const object = target?.informer.indexer.getByKey(key.slice(separator + 1));
    if (target === undefined || object === undefined) {
      this.#drainsStarted.delete(key);
      this.#seen.delete(key);
      return;
    }
    const labels = object.metadata?.labels ?? {};
    const current = labels[this.#shardLabel] || undefined;
    const draining = labels[this.#drainLabel] !== undefined;
    const desired = this.#hashRing.shardFor(shardKey(object));
    if (desired === undefined) return; // no live shard: wait
    if (current === undefined) {
      if (await this.#write(target, object, { shard: desired, drain: null })) this.#assigned(key);
      return;
    }
    if (current === desired) {
      if (draining) await this.#write(target, object, { drain: null });
      this.#drainsStarted.delete(key);
      return;
    }
    if (target.controlled || !this.#alive.has(current)) {
      if (!target.controlled && !this.#o.membership.has(current)) {
        this.#o.logger.warn(
          { ring: this.#o.ring.ring, object: key, label: this.#shardLabel, value: current },
          `${target.resource} ${key.slice(separator + 1)}: ${this.#shardLabel}=${current} names no shard of the ring (edited by hand?): moving it to ${desired}`,
        );
      }
      const reason: MoveReason = target.controlled ? 'dependent' : 'dead';
      if (await this.#write(target, object, { shard: desired, drain: null })) {
        this.#o.metrics.moved(this.#o.ring.ring, reason);
      }
      return;
    }
    if (!draining && (await this.#write(target, object, { drain: DRAIN_VALUE }))) {
      this.#drainsStarted.set(key, this.#o.clock.now());
    }
  }

  /** After labelling an unassigned object: a drain's end, or a new object's delay. */
  #assigned(key: string): void {
    const { metrics, clock, ring } = this.#o;
    const drainStart = this.#drainsStarted.get(key);
    if (drainStart !== undefined) {
      this.#drainsStarted.delete(key);
      metrics.drained(ring.ring, (clock.now() - drainStart) / 1000);
      metrics.moved(ring.ring, 'drain');
      return;
    }
    const seenAt = this.#seen.get(key);
    if (seenAt !== undefined) {
      this.#seen.delete(key);
      metrics.assigned(ring.ring, (clock.now() - seenAt) / 1000);
    }
  }

  /**
   * Merge-patches the shard and drain labels (`null` removes one), conditional on the
   * object's resourceVersion; false when the object changed or went away meanwhile (its
   * next event brings it back).
   */
  async #write(
    target: ShardedTarget,
    object: Wire<KubeObject>,
    change: { shard?: string; drain?: string | null },
  ): Promise<boolean> {
    const labels: Record<string, string | null> = {};
    if (change.shard !== undefined) labels[this.#shardLabel] = change.shard;
    if (change.drain !== undefined) labels[this.#drainLabel] = change.drain;
    try {
      await this.#o.client.patch(
        target.resource,
        object.metadata?.name ?? '',
        { metadata: { resourceVersion: object.metadata?.resourceVersion, labels } },
        { namespace: object.metadata?.namespace },
      );
      return true;
    } catch (error) {
      if (isConflict(error) || isNotFound(error)) return false;
      throw error;
    }
  }

  /** Sets `ctrlkit_sharding_objects` from the caches of the ring's resources. */
  #countObjects(): void {
    const counts = new Map<string, number>();
    for (const shard of this.#alive) counts.set(shard, 0);
    for (const target of this.targets) {
      if (target.controlled) continue;
      for (const object of target.informer.indexer.list()) {
        const shard = object.metadata?.labels?.[this.#shardLabel] ?? '';
        counts.set(shard, (counts.get(shard) ?? 0) + 1);
      }
    }
    this.#o.metrics.setObjects(this.#o.ring.ring, counts);
  }
}
