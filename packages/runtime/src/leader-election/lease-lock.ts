//! A ResourceLock on a `coordination.k8s.io/v1` Lease (client-go's `LeaseLock`).

import { InvalidArgumentError } from '@ctrlkit/core';
import {
  CoordinationV1Api,
  type KubeConfig,
  Observable,
  type ObservableMiddleware,
  type RequestContext,
  type ResponseContext,
  type V1Lease,
  type V1LeaseSpec,
  type V1MicroTime,
} from '@kubernetes/client-node';
import type { LeaderElectionRecord, ObservedRecord, ResourceLock } from './resource-lock.js';

/** What the lock needs to record an event on its Lease: our `EventRecorder` satisfies it. */
export interface LeaseLockEventRecorder {
  event(object: V1Lease, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** Options of {@link LeaseLock}. */
export interface LeaseLockOptions {
  /** The namespace of the Lease. */
  namespace: string;
  /** The name of the Lease. */
  name: string;
  /** The identity this candidate competes as (e.g. the pod name); must not be empty. */
  identity: string;
  /** Where to connect. Ignored when `api` is given. */
  kubeConfig?: KubeConfig;
  /** The API client to use; default: `kubeConfig.makeApiClient(CoordinationV1Api)`. */
  api?: CoordinationV1Api;
  /** Records "became leader" / "stopped leading" events on the Lease; default: none. */
  eventRecorder?: LeaseLockEventRecorder;
}

/**
 * Formats a time as the apiserver's `MicroTime` wants it: RFC 3339 with six fractional digits.
 * (client-node 2.0.1 writes milliseconds, which the apiserver rejects for MicroTime fields.)
 */
export function formatMicroTime(time: Date): string {
  return time.toISOString().replace(/Z$/, '000Z');
}

function parseTime(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string') return new Date(value);
  return new Date(0);
}

function timeText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : '';
}

/** Request options that abort the HTTP request with `signal` (a middleware, as `setHeaderOptions` makes). */
function withSignal(signal: AbortSignal | undefined): undefined | object {
  if (signal === undefined) return undefined;
  const middleware: ObservableMiddleware = {
    pre: (context: RequestContext) => {
      context.setSignal(signal);
      return new Observable(Promise.resolve(context));
    },
    post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
  };
  return { middleware: [middleware], middlewareMergeStrategy: 'append' };
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
  readonly #api: CoordinationV1Api;
  readonly #eventRecorder: LeaseLockEventRecorder | undefined;
  #lease: V1Lease | undefined;

  constructor(options: LeaseLockOptions) {
    for (const field of ['namespace', 'name'] as const) {
      if (typeof options[field] !== 'string' || options[field] === '') {
        throw new InvalidArgumentError(field, 'must not be empty');
      }
    }
    this.#namespace = options.namespace;
    this.#name = options.name;
    this.#identity = options.identity;
    if (options.api !== undefined) this.#api = options.api;
    else if (options.kubeConfig !== undefined)
      this.#api = options.kubeConfig.makeApiClient(CoordinationV1Api);
    else {
      throw new InvalidArgumentError(
        'kubeConfig',
        'LeaseLock needs options.kubeConfig or options.api',
      );
    }
    this.#eventRecorder = options.eventRecorder;
  }

  async get(signal?: AbortSignal): Promise<ObservedRecord | null> {
    let lease: V1Lease;
    try {
      lease = await this.#api.readNamespacedLease(
        { name: this.#name, namespace: this.#namespace },
        withSignal(signal) as never,
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return null;
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
      timeText(spec.acquireTime),
      timeText(spec.renewTime),
      record.leaderTransitions,
    ]);
    return { record, raw };
  }

  async create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    this.#lease = await this.#api.createNamespacedLease(
      {
        namespace: this.#namespace,
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.#name, namespace: this.#namespace },
          spec: toSpec(record),
        },
      },
      withSignal(signal) as never,
    );
  }

  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) throw new Error('lease not initialized: call get or create first');
    this.#lease = await this.#api.replaceNamespacedLease(
      {
        name: this.#name,
        namespace: this.#namespace,
        // metadata carries the resourceVersion: the apiserver answers 409 if the Lease changed.
        body: {
          ...lease,
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          spec: toSpec(record),
        },
      },
      withSignal(signal) as never,
    );
  }

  recordEvent(message: string): void {
    if (this.#eventRecorder === undefined || this.#lease === undefined) return;
    const lease: V1Lease = {
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

function toSpec(record: LeaderElectionRecord): V1LeaseSpec {
  const spec: V1LeaseSpec = {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    // Strings pass through client-node's serializer untouched: six fractional digits on the wire.
    acquireTime: formatMicroTime(record.acquireTime) as unknown as V1MicroTime,
    renewTime: formatMicroTime(record.renewTime) as unknown as V1MicroTime,
    leaseTransitions: record.leaderTransitions,
  };
  return spec;
}
