//! Leader election on a lock object, with client-go's timing and semantics (`tools/leaderelection`).

import { type Clock, isConflict, realClock, sleep } from '@ctrlkit/core';
import { type Logger, noopLogger } from '../logger.js';
import { LeaderElectionError } from './leader-election-error.js';
import {
  checkLeaderElectorOptions,
  JITTER_FACTOR,
  type LeaderCallbacks,
  type LeaderElectorOptions,
} from './leader-elector-options.js';
import type { LeaderElectionRecord, ResourceLock } from './resource-lock.js';

const emptyRecord: LeaderElectionRecord = {
  holderIdentity: '',
  leaseDurationSeconds: 0,
  acquireTime: new Date(0),
  renewTime: new Date(0),
  leaderTransitions: 0,
};

/**
 * Competes for a lock and runs `onStartedLeading` while it holds it (client-go's
 * `LeaderElector`).
 *
 * Guarantees (as client-go's):
 * - A candidate takes the lock only when it is free (empty holder) or when the record has not
 *   changed for `leaseDurationMs` as observed by this process's own clock since it last saw it
 *   change; the remote `renewTime` is never compared with the local clock.
 * - Writes are conditional on the version last read (optimistic concurrency): of two
 *   candidates racing, one write fails and that candidate keeps waiting.
 * - The leader renews every `retryPeriodMs`; if no renewal succeeds for `renewDeadlineMs`, it stops
 *   leading (the `onStartedLeading` signal aborts) before any other candidate can take over,
 *   as `renewDeadlineMs < leaseDurationMs`.
 * - `leaderTransitions` counts takeovers; `acquireTime` is kept while the same holder renews.
 *
 * Caveats: leadership is a lease on time, not a lock on the world: with clock-rate skew
 * between processes, or a leader paused longer than `leaseDurationMs - renewDeadlineMs`, two
 * processes can briefly both act as leader. Fence writes if that matters.
 */
export class LeaderElector {
  readonly #lock: ResourceLock;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #callbacks: LeaderCallbacks;
  readonly #releaseOnCancel: boolean;
  readonly #name: string;
  readonly #clock: Clock;
  readonly #wallTime: () => Date;
  readonly #random: () => number;
  readonly #logger: Logger;

  #observedRecord: LeaderElectionRecord = emptyRecord;
  #observedRaw: string | undefined;
  #observedTime = Number.NEGATIVE_INFINITY;
  #reportedLeader = '';
  #leading = false;
  #running = false;

  /** @throws InvalidArgumentError naming the option at fault, or the new name of a renamed one. */
  constructor(options: LeaderElectorOptions) {
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = checkLeaderElectorOptions(options);
    this.#lock = options.lock;
    this.#leaseDurationMs = leaseDurationMs;
    this.#renewDeadlineMs = renewDeadlineMs;
    this.#retryPeriodMs = retryPeriodMs;
    this.#callbacks = options.callbacks;
    this.#releaseOnCancel = options.releaseOnCancel ?? true;
    this.#name = options.name ?? options.lock.describe();
    this.#clock = options.clock ?? realClock;
    this.#wallTime = () => new Date(this.#clock.now());
    this.#random = options.random ?? Math.random;
    this.#logger = options.logger ?? noopLogger;
  }

  /** True while this candidate leads: between `onStartedLeading` and losing or releasing the lock. */
  isLeader(): boolean {
    return this.#leading && this.#observedIsUs();
  }

  /** The holder last observed (`''` when none is known or the lock was released). */
  getLeader(): string {
    return this.#observedRecord.holderIdentity;
  }

  /**
   * For a health endpoint (client-go's `HealthzAdaptor.Check`): false when this candidate
   * believes it leads but has not renewed for longer than
   * `leaseDurationMs + maxTolerableExpiredLeaseMs` (a stuck leader that should be restarted); true otherwise,
   * also when it does not lead.
   */
  check(maxTolerableExpiredLeaseMs = 0): boolean {
    if (!this.isLeader()) return true;
    return (
      this.#clock.now() - this.#observedTime <= this.#leaseDurationMs + maxTolerableExpiredLeaseMs
    );
  }

  /**
   * Competes for the lock until `signal` aborts: acquires it, calls `onStartedLeading`, renews
   * it, and when renewal fails for `renewDeadlineMs` or `signal` aborts, stops leading (releasing
   * the lock if `releaseOnCancel`). Resolves when done; `onStoppedLeading` has then been called.
   * An elector runs once: a second call rejects with `LeaderElectionError` (`AlreadyRunning`).
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) {
      throw new LeaderElectionError(
        'AlreadyRunning',
        `leader elector ${this.#name} is already running`,
      );
    }
    this.#running = true;
    try {
      if (!(await this.#acquire(signal))) return;
      const leading = new AbortController();
      const stop = (): void => leading.abort(signal.reason);
      signal.addEventListener('abort', stop, { once: true });
      this.#leading = true;
      this.#startLeading(leading.signal);
      try {
        await this.#renew(signal);
      } finally {
        signal.removeEventListener('abort', stop);
        this.#leading = false;
        leading.abort(new Error('stopped leading'));
      }
      if (this.#releaseOnCancel) await this.#release();
    } finally {
      try {
        this.#callbacks.onStoppedLeading();
      } catch (error) {
        this.#logger.error({ lock: this.#name, error }, 'onStoppedLeading threw');
      }
    }
  }

  #observedIsUs(): boolean {
    return this.#observedRecord.holderIdentity === this.#lock.identity();
  }

  #startLeading(signal: AbortSignal): void {
    this.#logger.info({ lock: this.#name, identity: this.#lock.identity() }, 'started leading');
    try {
      const result = this.#callbacks.onStartedLeading(signal);
      if (result instanceof Promise) {
        result.catch((error: unknown) =>
          this.#logger.error({ lock: this.#name, error }, 'onStartedLeading rejected'),
        );
      }
    } catch (error) {
      this.#logger.error({ lock: this.#name, error }, 'onStartedLeading threw');
    }
  }

  /** Tries every `retryPeriodMs` (jittered) until it holds the lock; false if `signal` aborted first. */
  async #acquire(signal: AbortSignal): Promise<boolean> {
    this.#logger.info({ lock: this.#name }, 'attempting to acquire leader lease');
    while (!signal.aborted) {
      // Each attempt is bounded by renewDeadlineMs, so a hung request cannot stall the loop.
      const acquired = await this.#attempt(signal, this.#clock.now() + this.#renewDeadlineMs);
      this.#maybeReportTransition();
      if (acquired) {
        this.#lock.recordEvent('became leader');
        this.#logger.info({ lock: this.#name }, 'successfully acquired lease');
        return true;
      }
      const wait = this.#retryPeriodMs * (1 + this.#random() * JITTER_FACTOR);
      await sleep(this.#clock, wait, signal);
    }
    return false;
  }

  /** Renews every `retryPeriodMs`; returns when `signal` aborts or a renewal fails for `renewDeadlineMs`. */
  async #renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = this.#clock.now() + this.#renewDeadlineMs;
      let renewed = false;
      for (;;) {
        renewed = await this.#attempt(signal, deadline);
        if (renewed || signal.aborted) break;
        const left = deadline - this.#clock.now();
        if (left <= 0) break;
        await sleep(this.#clock, Math.min(this.#retryPeriodMs, left), signal);
        if (signal.aborted || this.#clock.now() >= deadline) break;
      }
      this.#maybeReportTransition();
      if (signal.aborted) {
        this.#lock.recordEvent('stopped leading');
        return;
      }
      if (!renewed) {
        this.#lock.recordEvent('stopped leading');
        this.#logger.warn(
          { lock: this.#name, renewDeadlineMs: this.#renewDeadlineMs },
          'failed to renew lease: stopped leading',
        );
        return;
      }
      await sleep(this.#clock, this.#retryPeriodMs, signal);
    }
  }

  /**
   * One tryAcquireOrRenew, bounded by `deadline` (a clock time) and by `signal`:
   * the request is aborted and the attempt counts as failed when either comes first.
   */
  async #attempt(signal: AbortSignal, deadline: number): Promise<boolean> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: { cancel(): void } | undefined;
    const expired = new Promise<false>((resolve) => {
      const stop = (): void => resolve(false);
      controller.signal.addEventListener('abort', stop, { once: true });
      timer = this.#clock.setTimer(
        () => controller.abort(new Error('renew deadline exceeded')),
        Math.max(0, deadline - this.#clock.now()),
      );
    });
    try {
      return await Promise.race([this.#tryAcquireOrRenew(controller.signal), expired]);
    } finally {
      timer?.cancel();
      signal.removeEventListener('abort', onAbort);
      if (!controller.signal.aborted) controller.abort(new Error('attempt finished'));
    }
  }

  /** As client-go: the duration is the one in the observed record, counted from when it was observed. */
  #isLeaseValid(now: number): boolean {
    return this.#observedTime + this.#observedRecord.leaseDurationSeconds * 1000 > now;
  }

  #setObservedRecord(record: LeaderElectionRecord): void {
    this.#observedRecord = record;
    this.#observedTime = this.#clock.now();
  }

  /** The record this candidate writes when it acquires or renews now. */
  #desiredRecord(): LeaderElectionRecord {
    const wallNow = this.#wallTime();
    return {
      holderIdentity: this.#lock.identity(),
      leaseDurationSeconds: Math.ceil(this.#leaseDurationMs / 1000),
      acquireTime: wallNow,
      renewTime: wallNow,
      leaderTransitions: 0,
    };
  }

  /** Notes when the read record last changed; true when another holds a lease still valid. */
  #heldByAnother(observed: NonNullable<Awaited<ReturnType<ResourceLock['get']>>>): boolean {
    if (this.#observedRaw !== observed.raw) {
      this.#setObservedRecord(observed.record);
      this.#observedRaw = observed.raw;
    }
    if (
      observed.record.holderIdentity !== '' &&
      this.#isLeaseValid(this.#clock.now()) &&
      !this.#observedIsUs()
    ) {
      this.#logger.debug(
        { lock: this.#name, holder: observed.record.holderIdentity },
        'lock is held by another and has not yet expired',
      );
      return true;
    }
    return false;
  }

  /** client-go's tryAcquireOrRenew: true when this candidate holds the lock afterwards. */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.#clock.now();
    const desired = this.#desiredRecord();

    // 1. Fast path: the leader updates optimistically, assuming its last observation is current.
    if (this.#observedIsUs() && this.#isLeaseValid(now)) {
      const record = {
        ...desired,
        acquireTime: this.#observedRecord.acquireTime,
        leaderTransitions: this.#observedRecord.leaderTransitions,
      };
      try {
        await this.#lock.update(record, signal);
        if (signal.aborted) return false;
        this.#setObservedRecord(record);
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        this.#logger.debug(
          { lock: this.#name, error },
          'failed to update lock optimistically, falling back to the slow path',
        );
      }
    }

    // 2. Read the record, or create it.
    let observed: Awaited<ReturnType<ResourceLock['get']>>;
    try {
      observed = await this.#lock.get(signal);
    } catch (error) {
      if (!signal.aborted) {
        this.#logger.error({ lock: this.#name, error }, 'error retrieving resource lock');
      }
      return false;
    }
    if (signal.aborted) return false;
    if (observed === null) {
      try {
        await this.#lock.create(desired, signal);
      } catch (error) {
        if (!signal.aborted) {
          this.#logger.error({ lock: this.#name, error }, 'error initially creating lock record');
        }
        return false;
      }
      if (signal.aborted) return false;
      this.#setObservedRecord(desired);
      return true;
    }

    // 3. A record exists: note when it last changed, and respect a valid lease of another.
    if (this.#heldByAnother(observed)) return false;

    // 4. Take it over, or renew it on the slow path.
    const record: LeaderElectionRecord = this.#observedIsUs()
      ? {
          ...desired,
          acquireTime: observed.record.acquireTime,
          leaderTransitions: observed.record.leaderTransitions,
        }
      : { ...desired, leaderTransitions: observed.record.leaderTransitions + 1 };
    try {
      await this.#lock.update(record, signal);
    } catch (error) {
      if (!signal.aborted) this.#logger.info({ lock: this.#name, error }, 'failed to update lock');
      return false;
    }
    if (signal.aborted) return false;
    this.#setObservedRecord(record);
    return true;
  }

  /**
   * Writes an empty holder with a 1 s lease so that a successor takes over at once. As
   * client-go, it reads the lock first: a renewal aborted by the stop may have been applied
   * by the server after all, and a write with the version cached before it would conflict.
   * A conflict (another late write) is retried with a fresh read until `renewDeadlineMs`.
   * Nothing is written when the lock turns out to be held by another.
   */
  async #release(): Promise<void> {
    if (!this.#observedIsUs()) return;
    const controller = new AbortController();
    const timer = this.#clock.setTimer(
      () => controller.abort(new Error('release timed out')),
      this.#renewDeadlineMs,
    );
    try {
      await this.#releaseUntilDone(controller.signal);
    } catch (error) {
      this.#logger.error({ lock: this.#name, error }, 'failed to release lock');
    } finally {
      timer.cancel();
    }
    this.#maybeReportTransition();
  }

  async #releaseUntilDone(signal: AbortSignal): Promise<void> {
    for (;;) {
      const observed = await this.#lock.get(signal);
      signal.throwIfAborted();
      if (observed === null || observed.record.holderIdentity !== this.#lock.identity()) {
        this.#setObservedRecord(observed?.record ?? emptyRecord);
        this.#logger.info({ lock: this.#name }, 'lock is no longer ours: nothing to release');
        return;
      }
      const wallNow = this.#wallTime();
      const record: LeaderElectionRecord = {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: wallNow,
        renewTime: wallNow,
        leaderTransitions: observed.record.leaderTransitions,
      };
      try {
        await this.#lock.update(record, signal);
      } catch (error) {
        signal.throwIfAborted();
        // The client reports a 409 as `statusCode` (ApiStatusError), not as `code`.
        if (!isConflict(error)) throw error;
        this.#logger.debug(
          { lock: this.#name },
          'release conflicted with a late write: reading again',
        );
        continue;
      }
      this.#setObservedRecord(record);
      this.#logger.info({ lock: this.#name }, 'released leader lease');
      return;
    }
  }

  #maybeReportTransition(): void {
    const holder = this.#observedRecord.holderIdentity;
    if (holder === this.#reportedLeader) return;
    this.#reportedLeader = holder;
    const onNewLeader = this.#callbacks.onNewLeader;
    if (onNewLeader === undefined) return;
    queueMicrotask(() => {
      try {
        onNewLeader.call(this.#callbacks, holder);
      } catch (error) {
        this.#logger.error({ lock: this.#name, error }, 'onNewLeader threw');
      }
    });
  }
}
