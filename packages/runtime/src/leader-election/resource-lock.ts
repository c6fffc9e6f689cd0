//! The lock a leader elector competes for: an interface, so a Lease or any other object can hold the record.

/**
 * What the lock stores (client-go's `LeaderElectionRecord`). Times are wall-clock `Date`s;
 * an empty `holderIdentity` means nobody holds the lock (it was released).
 */
export interface LeaderElectionRecord {
  /** The identity of the holder; `''` when released. */
  holderIdentity: string;
  /** How long, in seconds, a candidate waits after the last observed change before taking over. */
  leaseDurationSeconds: number;
  /** When the current holder acquired the lock. */
  acquireTime: Date;
  /** When the current holder last renewed the lock. */
  renewTime: Date;
  /** How many times the lock changed hands. */
  leaderTransitions: number;
}

/** The record read from a lock, with a serialized form to detect changes cheaply. */
export interface ObservedRecord {
  record: LeaderElectionRecord;
  /** A stable serialization of what the server holds: equal strings mean no change. */
  raw: string;
}

/**
 * A lock for leader election (client-go's `resourcelock.Interface`). Implementations keep the
 * object they last read or wrote, so that `update` is conditional on its version (optimistic
 * concurrency: a concurrent writer makes `update` fail, which the elector counts as a lost race).
 */
export interface ResourceLock {
  /** Reads the record; `null` when the lock object does not exist. */
  get(signal?: AbortSignal): Promise<ObservedRecord | null>;
  /** Creates the lock object holding `record`; fails if it exists. */
  create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  /** Replaces the record, conditional on the version last read or written; fails on a conflict. */
  update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  /** Records an event about this lock (e.g. "became leader"); may do nothing. */
  recordEvent(message: string): void;
  /** The identity this candidate competes as. */
  identity(): string;
  /** A human-readable name of the lock, e.g. `kube-system/my-controller`. */
  describe(): string;
}
