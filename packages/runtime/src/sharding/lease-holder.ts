//! Holds a Lease while work runs: the work stops before the Lease is released, never after.

import type { Client } from '@ctrlkit/client';
import type { Clock, Logger } from '@ctrlkit/core';
import { LeaderElector } from '../leader-election/leader-elector.js';
import { LeaseLock } from '../leader-election/lease-lock.js';

/** What {@link holdLease} needs. */
export interface HoldLeaseOptions {
  client: Client;
  namespace: string;
  name: string;
  identity: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  clock: Clock;
  logger: Logger;
  /** Runs once the Lease is held, until its signal aborts (stop, or the Lease lost). */
  work(signal: AbortSignal): Promise<void>;
}

/**
 * Campaigns for the Lease, runs `work` while holding it, and on `signal` (or a lost Lease)
 * aborts the work, waits for it to finish, and only then releases the Lease, so a successor
 * never overlaps with it. Resolves `'stopped'` after `signal`, `'lost'` when the Lease could
 * not be renewed; rejects with the work's error (after releasing).
 */
export async function holdLease(
  options: HoldLeaseOptions,
  signal: AbortSignal,
): Promise<'stopped' | 'lost'> {
  const work = new AbortController();
  const electorStop = new AbortController();
  let running: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  let lost = false;
  let wake: () => void = () => {};
  const woken = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const onAbort = () => wake();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) wake();
  const elector = new LeaderElector({
    lock: new LeaseLock({
      client: options.client,
      namespace: options.namespace,
      name: options.name,
      identity: options.identity,
      ...(options.labels !== undefined && { labels: options.labels }),
      ...(options.annotations !== undefined && { annotations: options.annotations }),
    }),
    leaseDurationMs: options.leaseDurationMs,
    renewDeadlineMs: options.renewDeadlineMs,
    retryPeriodMs: options.retryPeriodMs,
    releaseOnCancel: true,
    name: `${options.namespace}/${options.name}`,
    clock: options.clock,
    logger: options.logger,
    callbacks: {
      onStartedLeading: (leading) => {
        leading.addEventListener('abort', () => work.abort(), { once: true });
        running = options.work(work.signal).catch((error: unknown) => {
          failure ??= { error };
          wake();
        });
      },
      onStoppedLeading: () => {
        work.abort();
        if (!signal.aborted) lost = true;
        wake();
      },
    },
  });
  const electorDone = elector.run(electorStop.signal);
  try {
    await woken;
    work.abort();
    await running;
    electorStop.abort();
    await electorDone;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw failure.error;
  return lost ? 'lost' : 'stopped';
}
