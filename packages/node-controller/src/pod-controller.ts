//! Keeps the pods bound to a virtual node in step with the provider that runs them.

import { isDeepStrictEqual } from 'node:util';
import {
  type Clock,
  errorMessage,
  InvalidArgumentError,
  isConflict,
  isNotFound,
  type Logger,
  noopLogger,
  realClock,
  sleep,
} from '@ctrlkit/core';
import {
  DeletedFinalStateUnknown,
  type EventRecorderLike,
  type Lister,
  newLister,
  type ResourceEventHandler,
  type SharedIndexInformer,
} from '@ctrlkit/runtime';
import {
  defaultControllerRateLimiter,
  type MetricsProvider,
  newTypedRateLimitingQueue,
  runWorkers,
  type ShouldRetryFunc,
  type TypedRateLimiter,
  type TypedRateLimitingInterface,
} from '@ctrlkit/workqueue';
import type { CoreV1Api, V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import { populateEnvironmentVariables } from './internal/env.js';
import {
  podShouldEnqueue,
  podsEffectivelyEqual,
  podsEqual,
  sameJson,
  sortEnv,
  toJson,
} from './internal/pod-equality.js';
import { isTerminal, SyncProviderWrapper } from './internal/sync-provider-wrapper.js';
import {
  isPodNotifier,
  type PodLifecycleHandler,
  type PodNotifier,
} from './pod-lifecycle-handler.js';

/** How often a provider status update waits for the pod to be known, in ms (virtual-kubelet: 151 ms). */
export const POD_STATUS_UPDATE_POLL_INTERVAL_MS = 151;
/** How many times it waits before giving up. */
export const POD_STATUS_UPDATE_POLL_ATTEMPTS = 20;

/** The pod operations the controller needs; client-node's `CoreV1Api` satisfies it. */
export type PodsClient = Pick<CoreV1Api, 'replaceNamespacedPodStatus' | 'deleteNamespacedPod'>;

/** What the controller needs of an informer; the runtime's `SharedIndexInformer` satisfies it. */
export type InformerLike<T extends V1Pod | V1ConfigMap | V1Secret | V1Service> = Pick<
  SharedIndexInformer<T>,
  'indexer' | 'addEventHandler' | 'whenSynced'
>;

/** Decides whether the controller handles an event for `pod` (the seed's `PodEventFilterFunc`); true to handle it. */
export type PodEventFilterFunc = (signal: AbortSignal, pod: V1Pod) => boolean;

/** Configuration of {@link PodController} (the seed's `PodControllerConfig`). */
export interface PodControllerConfig {
  /** Writes pod statuses and deletes pods. Required. */
  podClient: PodsClient;
  /** Pods bound to this node (e.g. a field selector `spec.nodeName=<node>`). Required; started by the caller. */
  podInformer: InformerLike<V1Pod>;
  /** Where pod events go. Required. */
  eventRecorder: EventRecorderLike;
  /** Runs the pods. Required. */
  provider: PodLifecycleHandler;
  /** For env resolution. Required. */
  configMapInformer: InformerLike<V1ConfigMap>;
  /** For env resolution. Required. */
  secretInformer: InformerLike<V1Secret>;
  /** For service link variables. Required. */
  serviceInformer: InformerLike<V1Service>;
  /** Default: the workqueue's `defaultControllerRateLimiter()`. */
  syncPodsFromKubernetesRateLimiter?: TypedRateLimiter<string>;
  /** Default: the workqueue's `defaultRetryFunc` (20 tries). */
  syncPodsFromKubernetesShouldRetryFunc?: ShouldRetryFunc<string>;
  /** Default: `defaultControllerRateLimiter()`. */
  deletePodsFromKubernetesRateLimiter?: TypedRateLimiter<string>;
  /** Default: `defaultRetryFunc`. */
  deletePodsFromKubernetesShouldRetryFunc?: ShouldRetryFunc<string>;
  /** Default: `defaultControllerRateLimiter()`. */
  syncPodStatusFromProviderRateLimiter?: TypedRateLimiter<string>;
  /** Default: `defaultRetryFunc`. */
  syncPodStatusFromProviderShouldRetryFunc?: ShouldRetryFunc<string>;
  /** Filters informer events (add, update and delete). Default: every event is handled. */
  podEventFilterFunc?: PodEventFilterFunc;
  /** Pass pods to the provider without resolving env (ConfigMaps, Secrets, field refs). Default false. */
  skipDownwardAPIResolution?: boolean;
  /** Where the queues' metrics go (queue names `syncPodsFromKubernetes`, ...). Default: the workqueue's global provider. */
  metricsProvider?: MetricsProvider;
  /** Default: the real clock. */
  clock?: Clock;
  /** Default: no logging. */
  logger?: Logger;
}

/** What the controller remembers of a pod (the seed's `knownPod`). */
export interface KnownPod {
  /** The last pod the provider reported. */
  lastPodStatusReceivedFromProvider?: V1Pod;
  /** The last pod successfully synced to the provider. */
  lastPodUsed?: V1Pod;
  /** True when the last provider report was skipped as unchanged. */
  lastPodStatusUpdateSkipped: boolean;
}

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

  readonly #config: PodControllerConfig;
  readonly #provider: PodLifecycleHandler & Partial<PodNotifier>;
  readonly #pods: Lister<V1Pod>;
  readonly #configMaps: Lister<V1ConfigMap>;
  readonly #secrets: Lister<V1Secret>;
  readonly #services: Lister<V1Service>;
  readonly #recorder: EventRecorderLike;
  readonly #clock: Clock;
  readonly #wallTime: () => Date;
  readonly #logger: Logger;
  readonly #knownPods = new Map<string, KnownPod>();
  readonly #syncQueue: TypedRateLimitingInterface<string>;
  readonly #deleteQueue: TypedRateLimitingInterface<string>;
  readonly #statusQueue: TypedRateLimitingInterface<string>;
  #syncWrapper: SyncProviderWrapper | undefined;
  #signal: AbortSignal = new AbortController().signal;
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
    this.#config = config;
    this.#clock = config.clock ?? realClock;
    this.#wallTime = () => new Date(this.#clock.now());
    this.#logger = config.logger ?? noopLogger;
    this.#recorder = config.eventRecorder;
    this.#pods = newLister(config.podInformer.indexer);
    this.#configMaps = newLister(config.configMapInformer.indexer);
    this.#secrets = newLister(config.secretInformer.indexer);
    this.#services = newLister(config.serviceInformer.indexer);
    if (isPodNotifier(config.provider)) {
      this.#provider = config.provider;
    } else {
      this.#syncWrapper = new SyncProviderWrapper(
        config.provider,
        this.#clock,
        this.#wallTime,
        this.#logger,
      );
      this.#provider = this.#syncWrapper;
    }
    const queue = (name: string, limiter: TypedRateLimiter<string> | undefined) =>
      newTypedRateLimitingQueue<string>(
        limiter ?? defaultControllerRateLimiter<string>({ clock: this.#clock }),
        {
          name,
          clock: this.#clock,
          metricsProvider: config.metricsProvider,
        },
      );
    this.#syncQueue = queue('syncPodsFromKubernetes', config.syncPodsFromKubernetesRateLimiter);
    this.#deleteQueue = queue(
      'deletePodsFromKubernetes',
      config.deletePodsFromKubernetesRateLimiter,
    );
    this.#statusQueue = queue(
      'syncPodStatusFromProvider',
      config.syncPodStatusFromProviderRateLimiter,
    );
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
    this.#signal = signal;
    let registration: { remove(): void } | undefined;
    try {
      this.#provider.notifyPods?.(signal, (pod) => {
        void this.#enqueuePodStatusUpdate(structuredClone(pod));
      });
      const synced = await this.#config.podInformer.whenSynced(signal);
      if (!synced) throw new Error('failed to wait for caches to sync');
      registration = this.#config.podInformer.addEventHandler(this.#handlers());
      await this.#deleteDanglingPods(signal, podSyncWorkers);
      const common = { workers: podSyncWorkers, signal, clock: this.#clock, logger: this.#logger };
      const running = [
        runWorkers(this.#syncQueue, (key) => this.#syncHandler(key), {
          ...common,
          shouldRetry: this.#config.syncPodsFromKubernetesShouldRetryFunc,
        }),
        runWorkers(this.#deleteQueue, (key) => this.#deleteHandler(key), {
          ...common,
          shouldRetry: this.#config.deletePodsFromKubernetesShouldRetryFunc,
        }),
        runWorkers(this.#statusQueue, (key) => this.#statusHandler(key), {
          ...common,
          shouldRetry: this.#config.syncPodStatusFromProviderShouldRetryFunc,
        }),
      ];
      if (this.#syncWrapper !== undefined) running.push(this.#syncWrapper.run(signal, this.#pods));
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
  storePod(key: string, pod: V1Pod): void {
    this.#knownPods.set(key, {
      lastPodStatusReceivedFromProvider: structuredClone(pod),
      lastPodStatusUpdateSkipped: false,
    });
  }

  /** The record of `key`, if any. */
  loadPod(key: string): KnownPod | undefined {
    return this.#knownPods.get(key);
  }

  /** Removes the record of `key`. */
  deletePod(key: string): void {
    this.#knownPods.delete(key);
  }

  /**
   * The informer's update rule for a known pod: when the last provider report was skipped and
   * `newPod` differs from it in status, annotations, labels or finalizers, a status sync is
   * queued; then `newPod` is stored as the last provider pod.
   */
  checkAndUpdatePod(key: string, record: KnownPod, newPod: V1Pod): void {
    this.#checkSkipped(key, record, newPod);
    record.lastPodStatusReceivedFromProvider = structuredClone(newPod);
  }

  /** Queues `key` (`ns/name`) on the sync queue, rate limited. */
  syncPodsFromKubernetesEnqueue(key: string): void {
    this.#syncQueue.addRateLimited(key);
  }

  /** Queues `key` (`ns/name/uid`) on the delete queue, rate limited. */
  deletePodsFromKubernetesEnqueue(key: string): void {
    this.#deleteQueue.addRateLimited(key);
  }

  /** Resets the delete queue's retry count of `key`. */
  deletePodsFromKubernetesForget(key: string): void {
    this.#deleteQueue.forget(key);
  }

  /** Queues `key` (`ns/name`) on the status queue, rate limited. */
  syncPodStatusFromProviderEnqueue(key: string): void {
    this.#statusQueue.addRateLimited(key);
  }

  // --- informer handlers ------------------------------------------------------------------

  #handlers(): ResourceEventHandler<V1Pod> {
    const accept = (pod: V1Pod): boolean =>
      this.#config.podEventFilterFunc === undefined ||
      this.#config.podEventFilterFunc(this.#signal, pod);
    return {
      onAdd: (pod) => {
        if (!accept(pod)) return;
        const key = podKey(pod);
        if (!this.#knownPods.has(key))
          this.#knownPods.set(key, { lastPodStatusUpdateSkipped: false });
        this.syncPodsFromKubernetesEnqueue(key);
      },
      onUpdate: (oldPod, newPod) => {
        if (!accept(newPod)) return;
        const key = podKey(newPod);
        const record = this.#knownPods.get(key);
        if (record === undefined) throw new Error(`pod ${key} not found in known pods`);
        this.#checkSkipped(key, record, newPod);
        if (podShouldEnqueue(oldPod, newPod)) this.syncPodsFromKubernetesEnqueue(key);
      },
      onDelete: (obj) => {
        const pod = DeletedFinalStateUnknown.isInstance<V1Pod>(obj) ? obj.obj : (obj as V1Pod);
        if (!accept(pod)) return;
        const key = podKey(pod);
        this.#knownPods.delete(key);
        this.syncPodsFromKubernetesEnqueue(key);
        this.deletePodsFromKubernetesForget(`${key}/${pod.metadata?.uid ?? ''}`);
      },
    };
  }

  #checkSkipped(key: string, record: KnownPod, newPod: V1Pod): void {
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

  // --- syncPodsFromKubernetes -------------------------------------------------------------

  async #syncHandler(key: string): Promise<void> {
    const parts = key.split('/');
    if (parts.length !== 2) {
      this.#logger.error({ key }, 'invalid resource key');
      return;
    }
    const [namespace = '', name = ''] = parts;
    const pod = this.#pods.namespace(namespace).get(name);
    if (pod === undefined) {
      let providerPod: V1Pod | undefined;
      try {
        providerPod = await this.#provider.getPod(this.#signal, namespace, name);
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
      if (providerPod === undefined) return;
      try {
        await this.#provider.deletePod(this.#signal, providerPod);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      return;
    }
    await this.#syncPodInProvider(key, pod);
  }

  async #syncPodInProvider(key: string, pod: V1Pod): Promise<void> {
    const deleting =
      pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
    if (deleting && !isRunning(pod)) {
      // No container runs any more: force-delete it from the API now.
      this.#deleteQueue.add(`${key}/${pod.metadata?.uid ?? ''}`);
      return;
    }
    const record = this.#knownPods.get(key);
    if (record === undefined) return;
    if (record.lastPodUsed !== undefined && podsEffectivelyEqual(record.lastPodUsed, pod)) return;
    if (deleting) {
      await this.#deletePodInProvider(pod);
      const graceMs = (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
      this.#deleteQueue.addAfter(`${key}/${pod.metadata?.uid ?? ''}`, graceMs);
    } else if (!isTerminal(pod)) {
      await this.#createOrUpdatePod(pod);
    }
    record.lastPodUsed = pod;
  }

  async #deletePodInProvider(pod: V1Pod): Promise<void> {
    try {
      await this.#provider.deletePod(this.#signal, structuredClone(pod));
    } catch (error) {
      if (isNotFound(error)) {
        this.#logger.debug({ pod: podKey(pod) }, 'pod not found in provider');
        return;
      }
      this.#recorder.event(
        pod,
        'Warning',
        'ProviderDeleteFailed',
        `Delete pod in provider failed: ${errorMessage(error)}`,
      );
      throw error;
    }
    this.#recorder.event(
      pod,
      'Normal',
      'ProviderDeleteSuccess',
      'Delete pod in provider successfully',
    );
  }

  async #createOrUpdatePod(pod: V1Pod): Promise<void> {
    const resolved = structuredClone(pod);
    if (this.#config.skipDownwardAPIResolution !== true) {
      populateEnvironmentVariables(resolved, {
        configMaps: this.#configMaps,
        secrets: this.#secrets,
        services: this.#services,
        recorder: this.#recorder,
      });
      for (const c of [
        ...(resolved.spec?.initContainers ?? []),
        ...(resolved.spec?.containers ?? []),
      ]) {
        if (c.env !== undefined) c.env = sortEnv(c.env);
      }
    }
    let existing: V1Pod | undefined;
    try {
      existing = await this.#provider.getPod(
        this.#signal,
        pod.metadata?.namespace ?? '',
        pod.metadata?.name ?? '',
      );
    } catch {
      existing = undefined;
    }
    if (existing !== undefined) {
      if (podsEqual(existing, resolved)) return;
      try {
        await this.#provider.updatePod(this.#signal, resolved);
      } catch (error) {
        await this.#handleProviderError(pod, error, 'ProviderUpdateFailed');
        throw error;
      }
      this.#recorder.event(
        pod,
        'Normal',
        'ProviderUpdateSuccess',
        'Update pod in provider successfully',
      );
      return;
    }
    try {
      await this.#provider.createPod(this.#signal, resolved);
    } catch (error) {
      await this.#handleProviderError(pod, error, 'ProviderCreateFailed');
      throw error;
    }
    this.#recorder.event(
      pod,
      'Normal',
      'ProviderCreateSuccess',
      'Create pod in provider successfully',
    );
  }

  async #handleProviderError(pod: V1Pod, error: unknown, reason: string): Promise<void> {
    const failed = structuredClone(pod);
    failed.status ??= {};
    const status = failed.status;
    status.phase = pod.spec?.restartPolicy === 'Never' ? 'Failed' : 'Pending';
    status.reason = 'ProviderFailed';
    status.message = errorMessage(error);
    failed.metadata = { ...failed.metadata, resourceVersion: '' };
    try {
      await this.#config.podClient.replaceNamespacedPodStatus({
        name: pod.metadata?.name ?? '',
        namespace: pod.metadata?.namespace ?? '',
        body: failed,
      });
    } catch (updateError) {
      this.#logger.warn(
        { err: updateError, pod: podKey(pod) },
        'failed to update pod status after provider error',
      );
    }
    this.#recorder.event(pod, 'Warning', reason, errorMessage(error));
  }

  // --- syncPodStatusFromProvider ----------------------------------------------------------

  async #enqueuePodStatusUpdate(pod: V1Pod): Promise<void> {
    const key = podKey(pod);
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    let record: KnownPod | undefined;
    for (let attempt = 0; ; attempt++) {
      if (this.#pods.namespace(namespace).get(name) === undefined) return;
      record = this.#knownPods.get(key);
      if (
        record !== undefined ||
        attempt >= POD_STATUS_UPDATE_POLL_ATTEMPTS ||
        this.#signal.aborted
      )
        break;
      await sleep(this.#clock, POD_STATUS_UPDATE_POLL_INTERVAL_MS, this.#signal);
    }
    if (record === undefined) {
      this.#logger.warn(
        { pod: key },
        'pod status update from provider for a pod not known to the controller',
      );
      return;
    }
    const last = record.lastPodStatusReceivedFromProvider;
    if (last !== undefined && isDeepStrictEqual(toJson(last), toJson(pod))) {
      record.lastPodStatusUpdateSkipped = true;
      return;
    }
    record.lastPodStatusReceivedFromProvider = pod;
    record.lastPodStatusUpdateSkipped = false;
    this.syncPodStatusFromProviderEnqueue(key);
  }

  async #statusHandler(key: string): Promise<void> {
    const [namespace = '', name = ''] = key.split('/');
    const pod = this.#pods.namespace(namespace).get(name);
    if (pod === undefined) return;
    await this.#updatePodStatus(pod, key);
  }

  async #updatePodStatus(pod: V1Pod, key: string): Promise<void> {
    if (isTerminal(pod)) return;
    const record = this.#knownPods.get(key);
    const last = record?.lastPodStatusReceivedFromProvider;
    if (last === undefined) return;
    const providerPod = structuredClone(last);
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    if (
      providerPod.metadata?.deletionTimestamp &&
      !pod.metadata?.deletionTimestamp &&
      sameJson(providerPod.status, pod.status)
    ) {
      const at = new Date(providerPod.metadata.deletionTimestamp).getTime();
      const grace =
        at <= this.#wallTime().getTime()
          ? 0
          : (providerPod.metadata.deletionGracePeriodSeconds ?? 0);
      try {
        await this.#config.podClient.deleteNamespacedPod({
          name,
          namespace,
          gracePeriodSeconds: grace,
        });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      return;
    }
    providerPod.metadata = {
      ...providerPod.metadata,
      resourceVersion: pod.metadata?.resourceVersion,
    };
    try {
      await this.#config.podClient.replaceNamespacedPodStatus({
        name,
        namespace,
        body: providerPod,
      });
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    // The API now knows the pod stopped: a pod being deleted can go at once.
    if (pod.metadata?.deletionTimestamp && !isRunning(providerPod)) {
      this.#deleteQueue.add(`${key}/${pod.metadata?.uid ?? ''}`);
    }
  }

  // --- deletePodsFromKubernetes -----------------------------------------------------------

  async #deleteHandler(key: string): Promise<void> {
    const slash = key.lastIndexOf('/');
    const podKeyPart = key.slice(0, slash);
    const uid = key.slice(slash + 1);
    const [namespace = '', name = ''] = podKeyPart.split('/');
    const pod = this.#pods.namespace(namespace).get(name);
    if (pod !== undefined && pod.metadata?.uid === uid) {
      if (isRunning(pod))
        this.#logger.info({ pod: podKeyPart }, 'force deleting pod in running state');
      try {
        await this.#config.podClient.deleteNamespacedPod({
          name,
          namespace,
          gracePeriodSeconds: 0,
          // with a body the apiserver takes the options from it, so the grace period goes there too
          body: { gracePeriodSeconds: 0, preconditions: { uid } },
        });
      } catch (error) {
        if (!isNotFound(error) && !isConflict(error)) throw error;
      }
    }
    this.#syncWrapper?.clearDeleted(podKeyPart);
  }

  async #deleteDanglingPods(signal: AbortSignal, workers: number): Promise<void> {
    let providerPods: V1Pod[];
    try {
      providerPods = await this.#provider.getPods(signal);
    } catch (error) {
      this.#logger.error({ err: error }, 'failed to fetch the list of pods from the provider');
      return;
    }
    const dangling = providerPods.filter(
      (p) =>
        this.#pods.namespace(p.metadata?.namespace ?? '').get(p.metadata?.name ?? '') === undefined,
    );
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < dangling.length) {
        const pod = dangling[next++] as V1Pod;
        try {
          await this.#provider.deletePod(signal, structuredClone(pod));
        } catch (error) {
          if (!isNotFound(error))
            this.#logger.error({ err: error, pod: podKey(pod) }, 'failed to delete dangling pod');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(workers, dangling.length) }, worker));
  }
}

function podKey(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

function isRunning(pod: V1Pod): boolean {
  // As the kubelet's `running`: true unless every container is terminated or waiting.
  return (pod.status?.containerStatuses ?? []).some(
    (cs) => !cs.state?.terminated && !cs.state?.waiting,
  );
}
