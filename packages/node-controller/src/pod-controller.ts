//! Keeps the pods bound to a virtual node in step with the provider that runs them.

import { InvalidArgumentError, noopLogger, realClock } from '@ctrlkit/core';
import type { ClientSource, Wire } from '@ctrlkit/runtime/client';
import {
  DeletedFinalStateUnknown,
  newLister,
  type ResourceEventHandler,
} from '@ctrlkit/runtime/informers';
import {
  defaultControllerRateLimiter,
  newTypedRateLimitingQueue,
  runWorkers,
  type TypedRateLimiter,
} from '@ctrlkit/workqueue';
import type { V1Pod } from '@kubernetes/client-node';
import { isPodNotifier } from './adapter.js';
import { deepCopy } from './internal/deep-copy.js';
import { type PodControllerContext, podKey } from './internal/pod-controller-context.js';
import { deleteDanglingPods, deletePodHandler } from './internal/pod-deletion.js';
import { podShouldEnqueue, podsEffectivelyEqual, sameJson } from './internal/pod-equality.js';
import { enqueuePodStatusUpdate, podStatusHandler } from './internal/pod-status-sync.js';
import { syncPodHandler } from './internal/pod-sync.js';
import { SyncProviderWrapper } from './internal/sync-provider-wrapper.js';
import { type PodsClient, podsClient } from './kube-clients.js';
import type { KnownPod, PodControllerConfig } from './pod-controller-config.js';

/**
 * Syncs pods from Kubernetes to a provider and their statuses back (the seed's
 * `PodController`), with three queues: `syncPodsFromKubernetes` (create, update, delete in
 * the provider), `deletePodsFromKubernetes` (force-delete once a pod has stopped) and
 * `syncPodStatusFromProvider` (write provider statuses to the API).
 */
export class PodController {
  /** Resolves once caches synced and workers run; never when startup fails. */
  readonly ready: Promise<void>;
  /** Resolves when `run` has returned. */
  readonly done: Promise<void>;

  readonly #c: PodControllerContext;
  #err: unknown;
  #started = false;
  #resolveReady!: () => void;
  #resolveDone!: () => void;

  /** @throws InvalidArgumentError naming the first missing field, in the seed's order. */
  constructor(config: PodControllerConfig) {
    if (config === null || typeof config !== 'object')
      throw new InvalidArgumentError('config', 'must be an object');
    const required: Array<[keyof PodControllerConfig, string]> = [
      ['podClient', 'missing core client'],
      ['eventRecorder', 'missing event recorder'],
      ['podInformer', 'missing pod informer'],
      ['configMapInformer', 'missing config map informer'],
      ['secretInformer', 'missing secret informer'],
      ['serviceInformer', 'missing service informer'],
      ['provider', 'missing provider'],
    ];
    for (const [field, message] of required) {
      if (config[field] === undefined || config[field] === null)
        throw new InvalidArgumentError(field, message);
    }
    const timeoutMs = config.providerTimeoutMs;
    if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new InvalidArgumentError(
        'providerTimeoutMs',
        `must be a number of ms > 0, got ${String(timeoutMs)}`,
      );
    }
    const clock = config.clock ?? realClock;
    const wallTime = () => new Date(clock.now());
    const logger = config.logger ?? noopLogger;
    const syncWrapper = isPodNotifier(config.provider)
      ? undefined
      : new SyncProviderWrapper(config.provider, clock, wallTime, logger);
    const queue = (name: string, limiter: TypedRateLimiter<string> | undefined) =>
      newTypedRateLimitingQueue<string>(
        limiter ?? defaultControllerRateLimiter<string>({ clock }),
        {
          name,
          clock,
          metricsProvider: config.metricsProvider,
        },
      );
    this.#c = {
      config,
      podClient: isPodsClient(config.podClient) ? config.podClient : podsClient(config.podClient),
      provider: syncWrapper ?? config.provider,
      syncWrapper,
      pods: newLister(config.podInformer.indexer),
      configMaps: newLister(config.configMapInformer.indexer),
      secrets: newLister(config.secretInformer.indexer),
      services: newLister(config.serviceInformer.indexer),
      recorder: config.eventRecorder,
      clock,
      wallTime,
      logger,
      knownPods: new Map(),
      syncQueue: queue('syncPodsFromKubernetes', config.syncPodsFromKubernetesRateLimiter),
      deleteQueue: queue('deletePodsFromKubernetes', config.deletePodsFromKubernetesRateLimiter),
      statusQueue: queue('syncPodStatusFromProvider', config.syncPodStatusFromProviderRateLimiter),
      signal: new AbortController().signal,
    };
    this.ready = new Promise((resolve) => {
      this.#resolveReady = resolve;
    });
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  /** Why `run` failed; `undefined` while running or after a clean stop. */
  get err(): unknown {
    return this.#err;
  }

  /**
   * Waits for the pod informer to sync (the caller starts informers), adds the event
   * handlers, deletes provider pods the API no longer has, then runs `podSyncWorkers`
   * workers per queue until `signal` aborts; resolves once they finished.
   */
  async run(signal: AbortSignal, podSyncWorkers: number): Promise<void> {
    if (!Number.isInteger(podSyncWorkers) || podSyncWorkers < 1) {
      throw new InvalidArgumentError(
        'podSyncWorkers',
        `must be an integer >= 1, got ${podSyncWorkers}`,
      );
    }
    if (this.#started)
      throw new InvalidArgumentError('run', 'the pod controller was already started');
    this.#started = true;
    this.#c.signal = signal;
    let registration: { remove(): void } | undefined;
    try {
      this.#c.provider.notifyPods?.(signal, (pod) => {
        void enqueuePodStatusUpdate(this.#c, deepCopy(pod));
      });
      const synced = await this.#c.config.podInformer.whenSynced(signal);
      if (!synced) throw new Error('failed to wait for caches to sync');
      registration = this.#c.config.podInformer.addEventHandler(this.#handlers());
      await deleteDanglingPods(this.#c, signal, podSyncWorkers);
      const common = {
        workers: podSyncWorkers,
        signal,
        clock: this.#c.clock,
        logger: this.#c.logger,
      };
      const running = [
        runWorkers(this.#c.syncQueue, (key) => syncPodHandler(this.#c, key), {
          ...common,
          shouldRetry: this.#c.config.syncPodsFromKubernetesShouldRetryFunc,
        }),
        runWorkers(this.#c.deleteQueue, (key) => deletePodHandler(this.#c, key), {
          ...common,
          shouldRetry: this.#c.config.deletePodsFromKubernetesShouldRetryFunc,
        }),
        runWorkers(this.#c.statusQueue, (key) => podStatusHandler(this.#c, key), {
          ...common,
          shouldRetry: this.#c.config.syncPodStatusFromProviderShouldRetryFunc,
        }),
      ];
      if (this.#c.syncWrapper !== undefined)
        running.push(this.#c.syncWrapper.run(signal, this.#c.pods));
      this.#resolveReady();
      await Promise.all(running);
    } catch (error) {
      this.#err = error;
      throw error;
    } finally {
      registration?.remove();
      this.#resolveDone();
    }
  }

  // --- the seed's exported helpers --------------------------------------------------------

  /** Stores a record for `key` holding a copy of `pod` as the last provider pod. */
  storePod(key: string, pod: Wire<V1Pod>): void {
    this.#c.knownPods.set(key, {
      lastPodStatusReceivedFromProvider: deepCopy(pod),
      lastPodStatusUpdateSkipped: false,
    });
  }

  /** The record of `key`, if any. */
  loadPod(key: string): KnownPod | undefined {
    return this.#c.knownPods.get(key);
  }

  /** Removes the record of `key`. */
  deletePod(key: string): void {
    this.#c.knownPods.delete(key);
  }

  /**
   * The informer's update rule for a known pod: when the last provider report was skipped and
   * `newPod` differs from it in status, annotations, labels or finalizers, a status sync is
   * queued; then `newPod` is stored as the last provider pod.
   */
  checkAndUpdatePod(key: string, record: KnownPod, newPod: Wire<V1Pod>): void {
    this.#checkSkipped(key, record, newPod);
    record.lastPodStatusReceivedFromProvider = deepCopy(newPod);
  }

  /** Queues `key` (`ns/name`) on the sync queue, rate limited. */
  syncPodsFromKubernetesEnqueue(key: string): void {
    this.#c.syncQueue.addRateLimited(key);
  }

  /** Queues `key` (`ns/name/uid`) on the delete queue, rate limited. */
  deletePodsFromKubernetesEnqueue(key: string): void {
    this.#c.deleteQueue.addRateLimited(key);
  }

  /** Resets the delete queue's retry count of `key`. */
  deletePodsFromKubernetesForget(key: string): void {
    this.#c.deleteQueue.forget(key);
  }

  /** Queues `key` (`ns/name`) on the status queue, rate limited. */
  syncPodStatusFromProviderEnqueue(key: string): void {
    this.#c.statusQueue.addRateLimited(key);
  }

  // --- informer handlers ------------------------------------------------------------------

  #handlers(): ResourceEventHandler<Wire<V1Pod>> {
    const accept = (pod: Wire<V1Pod>): boolean =>
      this.#c.config.podEventFilterFunc === undefined ||
      this.#c.config.podEventFilterFunc(this.#c.signal, pod);
    return {
      onAdd: (pod) => {
        if (!accept(pod)) return;
        const key = podKey(pod);
        if (!this.#c.knownPods.has(key))
          this.#c.knownPods.set(key, { lastPodStatusUpdateSkipped: false });
        this.syncPodsFromKubernetesEnqueue(key);
      },
      onUpdate: (oldPod, newPod) => {
        if (!accept(newPod)) return;
        const key = podKey(newPod);
        const record = this.#c.knownPods.get(key);
        if (record === undefined) throw new Error(`pod ${key} not found in known pods`);
        this.#checkSkipped(key, record, newPod);
        if (podShouldEnqueue(oldPod, newPod)) {
          this.syncPodsFromKubernetesEnqueue(key);
        } else if (record.lastPodUsed === oldPod && podsEffectivelyEqual(oldPod, newPod)) {
          // Only the status (or resourceVersion) changed: for the provider the new object is
          // the pod last used. Holding it lets the old one be collected (a copy less per pod).
          record.lastPodUsed = newPod;
        }
      },
      onDelete: (obj) => {
        const pod = DeletedFinalStateUnknown.isInstance<Wire<V1Pod>>(obj)
          ? obj.obj
          : (obj as Wire<V1Pod>);
        if (!accept(pod)) return;
        const key = podKey(pod);
        this.#c.knownPods.delete(key);
        this.syncPodsFromKubernetesEnqueue(key);
        this.deletePodsFromKubernetesForget(`${key}/${pod.metadata?.uid ?? ''}`);
      },
    };
  }

  #checkSkipped(key: string, record: KnownPod, newPod: Wire<V1Pod>): void {
    const last = record.lastPodStatusReceivedFromProvider;
    if (!record.lastPodStatusUpdateSkipped || last === undefined) return;
    const differs =
      !sameJson(last.status, newPod.status) ||
      !sameJson(last.metadata?.annotations ?? {}, newPod.metadata?.annotations ?? {}) ||
      !sameJson(last.metadata?.labels ?? {}, newPod.metadata?.labels ?? {}) ||
      !sameJson(last.metadata?.finalizers ?? [], newPod.metadata?.finalizers ?? []);
    if (!differs) return;
    record.lastPodStatusUpdateSkipped = false;
    this.syncPodStatusFromProviderEnqueue(key);
  }
}

function isPodsClient(client: PodsClient | ClientSource): client is PodsClient {
  return typeof (client as Partial<PodsClient>).replaceNamespacedPodStatus === 'function';
}
