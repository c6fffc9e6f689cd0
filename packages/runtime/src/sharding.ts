/**
 * `@ctrlkit/runtime/sharding`: controllers that share their objects across replicas, with
 * only Kubernetes itself (Leases, labels, label-selected watches), after the design of
 * timebertt/kubernetes-controller-sharding.
 *
 * - **Membership**: each replica runs a {@link Shard}: it holds its own shard Lease in the
 *   ring (labelled `ctrlkit.io/ring=<ring>`, holder = its name), renewed like a leader Lease,
 *   and runs its sharded controllers ({@link Shard.controller}) while it holds it. Their
 *   informers watch only `shard.ctrlkit.io/<ring>=<its name>`, and they acknowledge drains.
 * - **Assignment**: a {@link Sharder} (one leader per ring) labels every object of the ring's
 *   resources with the shard that consistent hashing ({@link HashRing}, FNV-1a 64 with 100
 *   virtual nodes per shard) of its key ({@link shardKey}: its namespace/name, or its
 *   controller owner's) picks, and moves objects when shards come and go: from a live shard
 *   with the drain handshake, from a dead one at once.
 * - **Metrics**: {@link PrometheusShardingMetrics}; **status**: {@link readRingStatus},
 *   {@link formatRingStatus} (the `ctrlkit-shards` command).
 * - Errors: {@link ShardingError} (`RingConflict`, `LeaseForbidden`, `ShardLeaseLost`).
 *
 * A first program (every replica runs the same):
 * ```ts
 * import { Manager } from '@ctrlkit/runtime/manager';
 * import { Shard, Sharder } from '@ctrlkit/runtime/sharding';
 *
 * const manager = new Manager({ kubeConfig, program });
 * const ring = { ring: 'widgets', resources: ['example.com/v1/widgets'], leaseNamespace: 'widgets-system' };
 * const shard = new Shard({ ...ring, manager, name: process.env.POD_NAME });
 * shard.controller({ name: 'widget', resource: 'example.com/v1/widgets', reconcile: reconcileWidget });
 * manager.add(shard).add(new Sharder({ ...ring, manager }));
 * await manager.start(setupSignalHandler());
 * ```
 *
 * @packageDocumentation
 */

export { fnv1a64, fnv1a64Position } from './sharding/fnv1a64.js';
export { DEFAULT_TOKENS_PER_SHARD, HashRing } from './sharding/hash-ring.js';
export {
  checkRingName,
  DRAIN_VALUE,
  drainLabel,
  RING_LABEL,
  RING_RESOURCES_ANNOTATION,
  shardLabel,
} from './sharding/ring-labels.js';
export type { RingOptions } from './sharding/ring-options.js';
export {
  formatRingStatus,
  type RingStatus,
  type RingStatusOptions,
  readRingStatus,
} from './sharding/ring-status.js';
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  Shard,
  type ShardedControllerOptions,
  type ShardManager,
  type ShardOptions,
} from './sharding/shard.js';
export { type ShardKeyObject, shardKey } from './sharding/shard-key.js';
export { SHARD_LEASE_VERBS } from './sharding/shard-preflight.js';
export {
  DEFAULT_MAX_CONCURRENT_ASSIGNMENTS,
  Sharder,
  type SharderManager,
  type SharderOptions,
  sharderLeaseName,
} from './sharding/sharder.js';
export { ShardingError, type ShardingErrorReason } from './sharding/sharding-error.js';
export { type MoveReason, PrometheusShardingMetrics } from './sharding/sharding-metrics.js';
