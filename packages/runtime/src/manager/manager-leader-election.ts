//! The manager's leader elector: a Lease lock in the pod's namespace, on the manager's client.

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Client, SERVICE_ACCOUNT_DIR } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { EventRecorder } from '../events/event-recorder.js';
import { LeaderElector } from '../leader-election/leader-elector.js';
import { LeaseLock } from '../leader-election/lease-lock.js';
import type { ManagerOptions } from './manager-options.js';

/** The manager's leader election options. */
export type ManagerLeaderElection = NonNullable<ManagerOptions['leaderElection']>;

/**
 * The elector of the manager's `leaderElection` options, on a Lease in `leaseNamespace` (or
 * the pod's namespace); throws `InvalidArgumentError` named after the manager's options.
 */
export function newManagerElector(
  client: Client,
  election: ManagerLeaderElection,
  eventRecorder: EventRecorder,
  rest: Pick<ConstructorParameters<typeof LeaderElector>[0], 'clock' | 'logger' | 'callbacks'>,
): LeaderElector {
  const namespace = election.leaseNamespace ?? podNamespace();
  if (namespace === undefined) {
    throw new InvalidArgumentError(
      'leaderElection.leaseNamespace',
      'required when not running in a pod (no service account namespace file)',
    );
  }
  // The lock's requests skip the client's rate limit (as controller-runtime gives leader
  // election a client of its own), so a busy app cannot starve its renewals; they are
  // counted, named and pooled with the rest all the same.
  const lock = new LeaseLock({
    namespace,
    name: election.leaseName,
    identity: election.identity ?? `${hostname()}_${randomUUID()}`,
    client,
    eventRecorder,
  });
  return newElector(lock, election, rest);
}

/** The namespace of the pod this process runs in, from its service account mount. */
function podNamespace(): string | undefined {
  const file = join(SERVICE_ACCOUNT_DIR, 'namespace');
  if (!existsSync(file)) return undefined;
  const namespace = readFileSync(file, 'utf8').trim();
  return namespace === '' ? undefined : namespace;
}

/** The elector, with its option errors renamed after the manager's options. */
function newElector(
  lock: LeaseLock,
  election: NonNullable<ManagerOptions['leaderElection']>,
  rest: Pick<ConstructorParameters<typeof LeaderElector>[0], 'clock' | 'logger' | 'callbacks'>,
): LeaderElector {
  try {
    return new LeaderElector({
      lock,
      ...(election.leaseDurationMs !== undefined && { leaseDurationMs: election.leaseDurationMs }),
      ...(election.renewDeadlineMs !== undefined && { renewDeadlineMs: election.renewDeadlineMs }),
      ...(election.retryPeriodMs !== undefined && { retryPeriodMs: election.retryPeriodMs }),
      releaseOnCancel: election.releaseOnCancel ?? true,
      name: election.leaseName,
      ...rest,
    });
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) {
      const field = `leaderElection.${error.field === 'lock.identity' ? 'identity' : error.field}`;
      throw new InvalidArgumentError(field, error.message);
    }
    throw error;
  }
}
