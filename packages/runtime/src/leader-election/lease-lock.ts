//! A ResourceLock on a `coordination.k8s.io/v1` Lease (client-go's `LeaseLock`).

import {
  type Client,
  type ClientSource,
  formatMicroTime,
  type KubeConfigLike,
  toClient,
  type Wire,
} from '@ctrlkit/client';
import { InvalidArgumentError, isNotFound } from '@ctrlkit/core';
import type { V1Lease, V1LeaseSpec } from '@kubernetes/client-node';
import type { LeaderElectionRecord, ObservedRecord, ResourceLock } from './resource-lock.js';

/** What the lock needs to record an event on its Lease: our `EventRecorder` satisfies it. */
export interface LeaseLockEventRecorder {
  event(object: Wire<V1Lease>, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** Options of {@link LeaseLock}. */
export interface LeaseLockOptions {
  /** The namespace of the Lease. */
  namespace: string;
  /** The name of the Lease. */
  name: string;
  /** The identity this candidate competes as (e.g. the pod name); must not be empty. */
  identity: string;
  /**
   * The runtime's client (`manager.client`), or a kubeconfig for its default client. The
   * Lease's requests skip its rate limit (`unthrottled`), as controller-runtime gives leader
   * election a client of its own, so a busy controller cannot delay a renewal.
   */
  client?: ClientSource;
  /** @deprecated Use `client`; a kubeconfig here is the same as `client: kubeConfig`. */
  kubeConfig?: KubeConfigLike;
  /** Records "became leader" / "stopped leading" events on the Lease; default: none. */
  eventRecorder?: LeaseLockEventRecorder;
  /** Labels the Lease carries (set on create, added on every update), e.g. a shard ring's. Default: none. */
  labels?: Readonly<Record<string, string>>;
  /** Annotations the Lease carries (set on create, added on every update). Default: none. */
  annotations?: Readonly<Record<string, string>>;
}

const LEASES = 'coordination.k8s.io/v1/leases';

function parseTime(value: string | undefined): Date {
  return typeof value === 'string' ? new Date(value) : new Date(0);
}

/**
 * A {@link ResourceLock} on a Lease. `update` replaces the Lease with the `resourceVersion` it
 * last read or wrote, so a concurrent writer makes it fail with 409 Conflict (a lost race).
 * Times are written with microsecond precision as the apiserver requires.
 */
export class LeaseLock implements ResourceLock {
  readonly #namespace: string;
  readonly #name: string;
  readonly #identity: string;
  readonly #client: Client;
  readonly #eventRecorder: LeaseLockEventRecorder | undefined;
  readonly #labels: Readonly<Record<string, string>> | undefined;
  readonly #annotations: Readonly<Record<string, string>> | undefined;
  #lease: Wire<V1Lease> | undefined;

  constructor(options: LeaseLockOptions) {
    for (const field of ['namespace', 'name'] as const) {
      if (typeof options[field] !== 'string' || options[field] === '') {
        throw new InvalidArgumentError(field, 'must not be empty');
      }
    }
    this.#namespace = options.namespace;
    this.#name = options.name;
    this.#identity = options.identity;
    const client = options.client ?? options.kubeConfig;
    if (client === undefined) {
      throw new InvalidArgumentError('client', 'LeaseLock needs options.client');
    }
    this.#client = toClient(client);
    this.#eventRecorder = options.eventRecorder;
    this.#labels = options.labels;
    this.#annotations = options.annotations;
  }

  async get(signal?: AbortSignal): Promise<ObservedRecord | null> {
    let lease: Wire<V1Lease>;
    try {
      lease = await this.#client.get<V1Lease>(LEASES, this.#name, {
        namespace: this.#namespace,
        signal,
        unthrottled: true,
      });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    this.#lease = lease;
    const spec = lease.spec ?? {};
    const record: LeaderElectionRecord = {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTime: parseTime(spec.acquireTime),
      renewTime: parseTime(spec.renewTime),
      leaderTransitions: spec.leaseTransitions ?? 0,
    };
    const raw = JSON.stringify([
      record.holderIdentity,
      record.leaseDurationSeconds,
      spec.acquireTime ?? '',
      spec.renewTime ?? '',
      record.leaderTransitions,
    ]);
    return { record, raw };
  }

  async create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    this.#lease = await this.#client.create<Wire<V1Lease>>(
      LEASES,
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: this.#name,
          namespace: this.#namespace,
          ...(this.#labels !== undefined && { labels: { ...this.#labels } }),
          ...(this.#annotations !== undefined && { annotations: { ...this.#annotations } }),
        },
        spec: toSpec(record),
      },
      { signal, unthrottled: true },
    );
  }

  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) throw new Error('lease not initialized: call get or create first');
    // metadata carries the resourceVersion: the apiserver answers 409 if the Lease changed.
    const metadata = {
      ...lease.metadata,
      ...(this.#labels !== undefined && {
        labels: { ...lease.metadata?.labels, ...this.#labels },
      }),
      ...(this.#annotations !== undefined && {
        annotations: { ...lease.metadata?.annotations, ...this.#annotations },
      }),
    };
    this.#lease = await this.#client.replace<Wire<V1Lease>>(
      LEASES,
      {
        ...lease,
        metadata,
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        spec: toSpec(record),
      },
      { namespace: this.#namespace, signal, unthrottled: true },
    );
  }

  recordEvent(message: string): void {
    if (this.#eventRecorder === undefined || this.#lease === undefined) return;
    const lease: Wire<V1Lease> = {
      ...this.#lease,
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
    };
    this.#eventRecorder.event(lease, 'Normal', 'LeaderElection', `${this.#identity} ${message}`);
  }

  identity(): string {
    return this.#identity;
  }

  describe(): string {
    return `${this.#namespace}/${this.#name}`;
  }
}

function toSpec(record: LeaderElectionRecord): Wire<V1LeaseSpec> {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    // Six fractional digits, as the apiserver requires of a MicroTime.
    acquireTime: formatMicroTime(record.acquireTime),
    renewTime: formatMicroTime(record.renewTime),
    leaseTransitions: record.leaderTransitions,
  };
}
