//! The sharder's metrics on a prom-client registry: objects per shard, moves, drain time, assignment delay.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Why an object changed shards. */
export type MoveReason = 'drain' | 'dead' | 'dependent';

/**
 * The metrics of a ring's sharder:
 * - `ctrlkit_sharding_objects{ring,shard}`: objects assigned to each shard (`shard=""`: not yet assigned);
 * - `ctrlkit_sharding_moves_total{ring,reason}`: objects moved between shards (`drain`: with
 *   the handshake, `dead`: from a shard whose Lease lapsed, `dependent`: following its owner);
 * - `ctrlkit_sharding_drain_duration_seconds{ring}`: from setting the drain label to the old
 *   shard's acknowledgement;
 * - `ctrlkit_sharding_assignment_delay_seconds{ring}`: from the sharder seeing a new object to
 *   its shard label written.
 */
export class PrometheusShardingMetrics {
  readonly #objects: Gauge<'ring' | 'shard'>;
  readonly #moves: Counter<'ring' | 'reason'>;
  readonly #drain: Histogram<'ring'>;
  readonly #delay: Histogram<'ring'>;

  constructor(registry: Registry) {
    this.#objects = new Gauge({
      name: 'ctrlkit_sharding_objects',
      help: 'Objects of the ring assigned to each shard ("" for not yet assigned).',
      labelNames: ['ring', 'shard'],
      registers: [registry],
    });
    this.#moves = new Counter({
      name: 'ctrlkit_sharding_moves_total',
      help: 'Objects moved from one shard to another, by reason (drain, dead, dependent).',
      labelNames: ['ring', 'reason'],
      registers: [registry],
    });
    this.#drain = new Histogram({
      name: 'ctrlkit_sharding_drain_duration_seconds',
      help: 'Seconds from the drain label set to the old shard acknowledging it.',
      labelNames: ['ring'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.#delay = new Histogram({
      name: 'ctrlkit_sharding_assignment_delay_seconds',
      help: 'Seconds from the sharder seeing an unassigned object to its shard label written.',
      labelNames: ['ring'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  }

  /** Replaces the per-shard object counts of `ring`. */
  setObjects(ring: string, counts: ReadonlyMap<string, number>): void {
    this.#objects.reset();
    for (const [shard, count] of counts) this.#objects.labels(ring, shard).set(count);
  }

  /** Counts one move. */
  moved(ring: string, reason: MoveReason): void {
    this.#moves.labels(ring, reason).inc();
  }

  /** Records a drain's duration, in seconds. */
  drained(ring: string, seconds: number): void {
    this.#drain.labels(ring).observe(seconds);
  }

  /** Records a new object's assignment delay, in seconds. */
  assigned(ring: string, seconds: number): void {
    this.#delay.labels(ring).observe(seconds);
  }
}
