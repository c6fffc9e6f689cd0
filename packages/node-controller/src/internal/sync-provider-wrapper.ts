//! Turns a provider without notifyPods into one that notifies, by polling getPodStatus.

import type { Clock, Logger } from '@ctrlkit/core';
import { isNotFound, sleep } from '@ctrlkit/core';
import { formatTime, type Wire } from '@ctrlkit/runtime/client';
import type { Lister } from '@ctrlkit/runtime/informers';
import type { V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { PodLifecycleHandler, PodNotifier, PodResources } from '../adapter.js';
import { deepCopy } from './deep-copy.js';

/** How often the wrapper polls pod statuses, in ms. */
export const SYNC_WRAPPER_POLL_INTERVAL_MS = 5_000;
/** A pod not found in the provider that is younger than this and not running is left alone, in ms. */
const NOT_FOUND_GRACE_MS = 60_000;

/** Polls a provider's pod statuses every 5 s and reports them through `notifyPods`. */
export class SyncProviderWrapper implements PodLifecycleHandler, PodNotifier {
  readonly #provider: PodLifecycleHandler;
  readonly #clock: Clock;
  readonly #wallTime: () => Date;
  readonly #logger: Logger;
  #notify: ((pod: Wire<V1Pod>) => void) | undefined;
  /** Keys `ns/name` of pods being deleted through this wrapper. */
  readonly #deleted = new Set<string>();

  constructor(provider: PodLifecycleHandler, clock: Clock, wallTime: () => Date, logger: Logger) {
    this.#provider = provider;
    this.#clock = clock;
    this.#wallTime = wallTime;
    this.#logger = logger;
  }

  notifyPods(_signal: AbortSignal, callback: (pod: Wire<V1Pod>) => void): void {
    this.#notify = callback;
  }

  /** Polls until `signal` aborts. */
  async run(signal: AbortSignal, pods: Lister<Wire<V1Pod>>): Promise<void> {
    while (!signal.aborted) {
      await sleep(this.#clock, SYNC_WRAPPER_POLL_INTERVAL_MS, signal);
      if (signal.aborted) return;
      await Promise.all(pods.list().map((pod) => this.#syncPod(signal, pod)));
    }
  }

  /** Forgets that the pod `ns/name` was deleted (called once the API object is gone). */
  clearDeleted(key: string): void {
    this.#deleted.delete(key);
  }

  createPod(signal: AbortSignal, pod: Wire<V1Pod>, resources?: PodResources): Promise<void> {
    return resources === undefined
      ? this.#provider.createPod(signal, pod)
      : this.#provider.createPod(signal, pod, resources);
  }

  updatePod(signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    return this.#provider.updatePod(signal, pod);
  }

  async deletePod(signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    this.#deleted.add(key);
    try {
      await this.#provider.deletePod(signal, pod);
    } catch (error) {
      this.#deleted.delete(key);
      throw error;
    }
    if (isTerminal(pod)) return;
    const terminated = deepCopy(pod);
    const now = this.#wallTime();
    terminated.status ??= {};
    const status = terminated.status;
    status.phase = 'Succeeded';
    status.reason = 'Terminated';
    status.containerStatuses = (status.containerStatuses ?? []).map((cs) =>
      terminate(cs, 'Terminated', 0, now),
    );
    this.#notify?.(terminated);
  }

  getPod(signal: AbortSignal, namespace: string, name: string): Promise<Wire<V1Pod> | undefined> {
    return this.#provider.getPod(signal, namespace, name);
  }

  getPodStatus(
    signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1PodStatus> | undefined> {
    return this.#provider.getPodStatus(signal, namespace, name);
  }

  getPods(signal: AbortSignal): Promise<Wire<V1Pod>[]> {
    return this.#provider.getPods(signal);
  }

  async #syncPod(signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    if (isTerminal(pod)) return;
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    let status: Wire<V1PodStatus> | undefined;
    try {
      status = await this.#provider.getPodStatus(signal, namespace, name);
    } catch (error) {
      if (!isNotFound(error)) {
        this.#logger.error(
          { err: error, pod: `${namespace}/${name}` },
          'error getting pod status from provider',
        );
        return;
      }
    }
    if (status !== undefined) {
      this.#notify?.({ ...deepCopy(pod), status: deepCopy(status) });
      return;
    }
    if (this.#deleted.has(`${namespace}/${name}`)) return;
    const created = pod.metadata?.creationTimestamp;
    const age =
      created === undefined ? Infinity : this.#wallTime().getTime() - new Date(created).getTime();
    if (pod.status?.phase !== 'Running' && age < NOT_FOUND_GRACE_MS) return;
    const failed = deepCopy(pod);
    const now = this.#wallTime();
    failed.status ??= {};
    const s = failed.status;
    s.phase = 'Failed';
    s.reason = 'NotFound';
    s.message = 'The pod status was not found and may have been deleted from the provider';
    s.containerStatuses = (s.containerStatuses ?? []).map((cs) =>
      cs.state?.running !== undefined ? terminate(cs, 'NotFound', -137, now) : cs,
    );
    this.#notify?.(failed);
  }
}

function terminate(
  cs: Wire<V1ContainerStatus>,
  reason: string,
  exitCode: number,
  now: Date,
): Wire<V1ContainerStatus> {
  return {
    ...cs,
    ready: false,
    started: false,
    state: {
      terminated: {
        exitCode,
        reason,
        message:
          reason === 'NotFound'
            ? 'Container was not found and was likely deleted'
            : 'Container was terminated',
        startedAt: cs.state?.running?.startedAt,
        finishedAt: formatTime(now),
      },
    },
  };
}

export function isTerminal(pod: Wire<V1Pod>): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}
