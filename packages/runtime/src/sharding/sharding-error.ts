//! The error sharding throws for a ring or a replica it cannot run.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong:
 * - `RingConflict`: another live replica of the ring shards other resources (two rings
 *   with one name);
 * - `LeaseForbidden`: the replica may not read or write its Lease (RBAC);
 * - `ShardLeaseLost`: the replica could not renew its shard Lease and stopped reconciling.
 */
export type ShardingErrorReason = 'RingConflict' | 'LeaseForbidden' | 'ShardLeaseLost';

/** Thrown by `Shard.start` (so by `Manager.start`, as a runnable's failure). */
export class ShardingError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: ShardingErrorReason;
  /** The ring. */
  readonly ring: string;

  constructor(
    reason: ShardingErrorReason,
    ring: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.reason = reason;
    this.ring = ring;
  }
}
