import { ApiStatusError } from '@ctrlkit/client';
import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { LeaderElectionError } from './leader-election-error.js';
import { LeaderElector } from './leader-elector.js';
import {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  type LeaderElectorOptions,
} from './leader-elector-options.js';
import type { LeaderElectionRecord, ObservedRecord, ResourceLock } from './resource-lock.js';

/** The server side of a fake lock: one record with a version, shared by candidates. */
class FakeStore {
  record: LeaderElectionRecord | undefined;
  version = 0;
  /** While true, every call fails as if the apiserver were unreachable. */
  down = false;
  /** While true, every call hangs until its signal aborts. */
  hang = false;
  /** While true, an update is applied but its answer never comes (it hangs until aborted). */
  applyThenHang = false;
  writes = 0;
  /** While true, the next update hangs (until aborted) and lands on the server at the next get. */
  landLate = false;
  #late: (() => void) | undefined;
  /** Applies the late update, as the apiserver would: only if its version is still current. */
  landAfterGet(): void {
    this.#late?.();
    this.#late = undefined;
  }
  holdLate(record: LeaderElectionRecord, seen: number): void {
    this.landLate = false;
    this.#late = () => {
      if (seen !== this.version) return;
      this.record = { ...record };
      this.version++;
    };
  }
}

/** A 409 as the runtime's client reports it (an `ApiStatusError`, as `LeaseLock` gets it). */
const conflict = (): ApiStatusError =>
  new ApiStatusError(409, { code: 409, reason: 'Conflict' }, 'PUT leases/lock');

class FakeLock implements ResourceLock {
  #seen = -1;
  readonly events: string[] = [];
  constructor(
    readonly store: FakeStore,
    readonly id: string,
  ) {}

  async get(signal?: AbortSignal): Promise<ObservedRecord | null> {
    await this.#maybeHang(signal);
    if (this.store.down) throw new Error('connection refused');
    if (this.store.record === undefined) return null;
    this.#seen = this.store.version;
    const observed = { record: { ...this.store.record }, raw: JSON.stringify(this.store.record) };
    this.store.landAfterGet();
    return observed;
  }
  async create(record: LeaderElectionRecord): Promise<void> {
    if (this.store.down) throw new Error('connection refused');
    if (this.store.record !== undefined) throw new Error('AlreadyExists');
    this.store.record = { ...record };
    this.store.writes++;
    this.#seen = ++this.store.version;
  }
  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    await this.#maybeHang(signal);
    if (this.store.down) throw new Error('connection refused');
    if (this.store.landLate) {
      this.store.holdLate(record, this.#seen);
      return this.#maybeHang(signal, true);
    }
    if (this.#seen !== this.store.version) throw conflict();
    this.store.record = { ...record };
    this.store.writes++;
    if (this.store.applyThenHang) {
      this.store.version++;
      this.store.applyThenHang = false;
      return new Promise((_, reject) =>
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    }
    this.#seen = ++this.store.version;
  }
  #maybeHang(signal: AbortSignal | undefined, hang = this.store.hang): Promise<void> {
    if (!hang) return Promise.resolve();
    return new Promise((_, reject) =>
      signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
    );
  }
  recordEvent(message: string): void {
    this.events.push(message);
  }
  identity(): string {
    return this.id;
  }
  describe(): string {
    return 'fake/lock';
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Moves the fake clock `ms` forward in 100 ms steps, letting promises settle in between. */
async function advance(clock: FakeClock, ms: number): Promise<void> {
  await flush();
  for (let t = 0; t < ms; t += 100) {
    clock.step(Math.min(100, ms - t));
    await flush();
  }
}

function candidate(
  store: FakeStore,
  id: string,
  clock: FakeClock,
  overrides: Partial<LeaderElectorOptions> = {},
) {
  const log: string[] = [];
  let leadingSignal: AbortSignal | undefined;
  const lock = new FakeLock(store, id);
  const elector = new LeaderElector({
    lock,
    clock,
    random: () => 0,
    callbacks: {
      onStartedLeading: (signal) => {
        leadingSignal = signal;
        log.push('started');
      },
      onStoppedLeading: () => log.push('stopped'),
      onNewLeader: (identity) => log.push(`leader:${identity}`),
    },
    ...overrides,
  });
  const controller = new AbortController();
  const done = elector.run(controller.signal);
  return { elector, lock, log, controller, done, leadingSignal: () => leadingSignal };
}

describe('LeaderElector', () => {
  it('acquires a free lock at once, creates the record, and reports itself as leader', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.getLeader()).toBe('a');
    expect(a.log).toEqual(['leader:a', 'started']);
    expect(store.record).toMatchObject({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      leaderTransitions: 0,
    });
    expect(a.lock.events).toEqual(['became leader']);
    a.controller.abort();
    await a.done;
  });

  it('renews every retryPeriodMs, keeping acquireTime', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const start = clock.now();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    const acquired = store.record!.acquireTime;
    const writes = store.writes;
    await advance(clock, 10 * DEFAULT_RETRY_PERIOD_MS);
    expect(store.writes - writes).toBe(10);
    expect(store.record!.acquireTime).toEqual(acquired);
    expect(store.record!.renewTime.getTime()).toBe(start + 20_000);
    a.controller.abort();
    await a.done;
  });

  it('does not take over a lease until leaseDurationMs passes with no observed change', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    const b = candidate(store, 'b', clock);
    // While a renews, b never acquires, however long it waits.
    await advance(clock, 60_000);
    expect(b.elector.isLeader()).toBe(false);
    expect(b.elector.getLeader()).toBe('a');
    expect(b.log).toEqual(['leader:a']);
    // a's process freezes: the record stops changing (no release).
    store.down = true;
    a.controller.abort();
    await a.done; // its release fails: the record keeps a as holder
    store.down = false;
    expect(store.record!.holderIdentity).toBe('a');
    // Simulate a frozen leader that no longer writes: b observed the last change at most one
    // retry ago, and must wait a full leaseDurationMs from that observation.
    const frozenAt = clock.now();
    await advance(clock, DEFAULT_LEASE_DURATION_MS - 2 * DEFAULT_RETRY_PERIOD_MS);
    expect(b.elector.isLeader()).toBe(false);
    await advance(clock, 2 * DEFAULT_RETRY_PERIOD_MS + DEFAULT_RETRY_PERIOD_MS);
    expect(b.elector.isLeader()).toBe(true);
    expect(clock.now() - frozenAt).toBeGreaterThanOrEqual(
      DEFAULT_LEASE_DURATION_MS - DEFAULT_RETRY_PERIOD_MS,
    );
    expect(store.record).toMatchObject({ holderIdentity: 'b', leaderTransitions: 1 });
    expect(b.log).toEqual(['leader:a', 'leader:b', 'started']);
    b.controller.abort();
    await b.done;
  });

  it('compares against the local observation time, not the remote renewTime', async () => {
    const clock = new FakeClock(1_000_000);
    const store = new FakeStore();
    // A record renewed "long ago" by the remote clock, but never seen before by this process.
    store.record = {
      holderIdentity: 'other',
      leaseDurationSeconds: 15,
      acquireTime: new Date(0),
      renewTime: new Date(0),
      leaderTransitions: 3,
    };
    const b = candidate(store, 'b', clock);
    await advance(clock, DEFAULT_LEASE_DURATION_MS - 1_000);
    expect(b.elector.isLeader()).toBe(false);
    await advance(clock, 1_000 + 2 * DEFAULT_RETRY_PERIOD_MS);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.record).toMatchObject({ holderIdentity: 'b', leaderTransitions: 4 });
    b.controller.abort();
    await b.done;
  });

  it('goes by the lease duration in the observed record, not its own (as client-go)', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    store.record = {
      holderIdentity: 'other',
      leaseDurationSeconds: 30,
      acquireTime: new Date(0),
      renewTime: new Date(0),
      leaderTransitions: 0,
    };
    const b = candidate(store, 'b', clock); // configured with 15 s
    await advance(clock, 25_000);
    expect(b.elector.isLeader()).toBe(false);
    await advance(clock, 5_000 + 2 * DEFAULT_RETRY_PERIOD_MS);
    expect(b.elector.isLeader()).toBe(true);
    b.controller.abort();
    await b.done;
  });

  it('takes over a released lock (empty holder) at once, counting a transition', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    const b = candidate(store, 'b', clock);
    await advance(clock, 4_000);
    a.controller.abort();
    await a.done;
    expect(a.log).toEqual(['leader:a', 'started', 'leader:', 'stopped']);
    expect(a.leadingSignal()!.aborted).toBe(true);
    expect(store.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    // b retries within retryPeriodMs × (1 + jitter); random() is 0 here.
    await advance(clock, DEFAULT_RETRY_PERIOD_MS);
    expect(b.elector.isLeader()).toBe(true);
    expect(store.record).toMatchObject({ holderIdentity: 'b', leaderTransitions: 1 });
    b.controller.abort();
    await b.done;
  });

  it('releases the lock when the stop aborts a renewal the server applied (reads before it writes)', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    store.applyThenHang = true;
    // The next renewal is applied, but its answer is still on the way when the stop comes.
    await advance(clock, DEFAULT_RETRY_PERIOD_MS);
    expect(store.applyThenHang).toBe(false);
    a.controller.abort();
    await a.done;
    expect(store.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it('releases the lock when a renewal in flight at the stop lands between its read and its write (retries the 409)', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    store.landLate = true;
    await advance(clock, DEFAULT_RETRY_PERIOD_MS);
    expect(store.landLate).toBe(false); // the renewal is on the wire
    // The stop aborts it on our side; the server applies it right after the release has read.
    a.controller.abort();
    await a.done;
    expect(store.version).toBe(4); // create, first renewal, the late renewal, the release
    expect(store.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    expect(a.elector.getLeader()).toBe('');
    expect(a.log.at(-1)).toBe('stopped');
  });

  it('does not release a lock another candidate holds by the time of the stop', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    store.hang = true;
    await advance(clock, DEFAULT_RETRY_PERIOD_MS);
    // While a's renewal hangs, someone else writes the lock.
    store.record = { ...(store.record as LeaderElectionRecord), holderIdentity: 'b' };
    store.version++;
    store.hang = false;
    a.controller.abort();
    await a.done;
    expect(store.record).toMatchObject({ holderIdentity: 'b' });
  });

  it('keeps the lock on releaseOnCancel: false', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock, { releaseOnCancel: false });
    await advance(clock, 0);
    a.controller.abort();
    await a.done;
    expect(store.record!.holderIdentity).toBe('a');
  });

  it('stops leading when renewal fails for renewDeadlineMs, not before', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    store.down = true;
    const failedFrom = clock.now() + DEFAULT_RETRY_PERIOD_MS; // the next renewal is the first to fail
    await advance(clock, DEFAULT_RETRY_PERIOD_MS + DEFAULT_RENEW_DEADLINE_MS - 200);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.leadingSignal()!.aborted).toBe(false);
    await advance(clock, 400);
    expect(a.leadingSignal()!.aborted).toBe(true);
    expect(clock.now() - failedFrom).toBeLessThan(DEFAULT_LEASE_DURATION_MS);
    await a.done;
    expect(a.elector.isLeader()).toBe(false);
    expect(a.log.at(-1)).toBe('stopped');
    expect(a.lock.events).toEqual(['became leader', 'stopped leading']);
  });

  it('stops leading after renewDeadlineMs when renewals hang (requests aborted at the deadline)', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    store.hang = true;
    await advance(clock, DEFAULT_RETRY_PERIOD_MS + DEFAULT_RENEW_DEADLINE_MS - 200);
    expect(a.leadingSignal()!.aborted).toBe(false);
    await advance(clock, 400);
    expect(a.leadingSignal()!.aborted).toBe(true);
    await advance(clock, DEFAULT_RENEW_DEADLINE_MS); // the release times out too
    await a.done;
    expect(a.log.at(-1)).toBe('stopped');
  });

  it('keeps trying to acquire when a request hangs', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    store.hang = true;
    const a = candidate(store, 'a', clock);
    await advance(clock, DEFAULT_RENEW_DEADLINE_MS + 100);
    store.hang = false;
    await advance(clock, 2 * DEFAULT_RETRY_PERIOD_MS);
    expect(a.elector.isLeader()).toBe(true);
    a.controller.abort();
    await a.done;
  });

  it('check() fails for a leader stuck for longer than leaseDurationMs + tolerance', async () => {
    const fake = new FakeClock();
    let stuck = false;
    // A clock whose new timers never fire once `stuck`: the renew loop hangs, time goes on.
    const clock = {
      now: () => fake.now(),
      setTimer: (callback: () => void, ms: number) =>
        stuck ? { cancel() {} } : fake.setTimer(callback, ms),
      setTicker: (callback: () => void, ms: number) => fake.setTicker(callback, ms),
    };
    const store = new FakeStore();
    const a = candidate(store, 'a', fake, { clock });
    await advance(fake, 0);
    expect(a.elector.check()).toBe(true);
    stuck = true;
    await advance(fake, DEFAULT_LEASE_DURATION_MS + 4_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.check(5_000)).toBe(true);
    await advance(fake, 4_000); // the last renewal was at most one retryPeriodMs after stuck
    expect(a.elector.check(5_000)).toBe(false);
    expect(a.elector.check()).toBe(false);
  });

  it('survives failed renewals shorter than renewDeadlineMs', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    const a = candidate(store, 'a', clock);
    await advance(clock, 0);
    store.down = true;
    await advance(clock, DEFAULT_RETRY_PERIOD_MS + DEFAULT_RENEW_DEADLINE_MS - 2_500);
    store.down = false;
    await advance(clock, 3 * DEFAULT_RETRY_PERIOD_MS);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.leadingSignal()!.aborted).toBe(false);
    a.controller.abort();
    await a.done;
  });

  it('loses a race on a conflicting write and keeps waiting (optimistic concurrency)', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    store.record = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: new Date(0),
      renewTime: new Date(0),
      leaderTransitions: 0,
    };
    const a = candidate(store, 'a', clock);
    const b = candidate(store, 'b', clock);
    await advance(clock, 0);
    // Both read the free record; only the first write wins, the other gets a conflict.
    expect([a.elector.isLeader(), b.elector.isLeader()].filter(Boolean)).toHaveLength(1);
    await advance(clock, 20_000);
    expect([a.elector.isLeader(), b.elector.isLeader()].filter(Boolean)).toHaveLength(1);
    expect(store.record.leaderTransitions).toBe(1);
    a.controller.abort();
    b.controller.abort();
    await Promise.all([a.done, b.done]);
  });

  it('calls onStoppedLeading even when aborted before it ever led, as client-go does', async () => {
    const clock = new FakeClock();
    const store = new FakeStore();
    store.down = true;
    const a = candidate(store, 'a', clock);
    await advance(clock, 5_000);
    a.controller.abort();
    await a.done;
    expect(a.log).toEqual(['stopped']);
  });

  it('runs once', async () => {
    const clock = new FakeClock();
    const a = candidate(new FakeStore(), 'a', clock);
    const error = await a.elector.run(new AbortController().signal).catch((e: unknown) => e);
    expect(LeaderElectionError.isInstance(error)).toBe(true);
    expect((error as LeaderElectionError).reason).toBe('AlreadyRunning');
    a.controller.abort();
    await a.done;
  });
});
