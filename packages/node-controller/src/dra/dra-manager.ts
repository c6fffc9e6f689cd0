//! Prepares the claims of the node's pods through the registered DRA plugins and unprepares them once no pod uses them (the kubelet's DRA manager).

import { type Clock, errorMessage, type Logger, noopLogger, realClock } from '@ctrlkit/core';
import type { WireClaim, WireDevice } from '@ctrlkit/dra-kubeletplugin/protocol';
import { type Client, type ClientSource, toClient, type Wire } from '@ctrlkit/runtime/client';
import { DeletedFinalStateUnknown } from '@ctrlkit/runtime/informers';
import {
  defaultControllerRateLimiter,
  newTypedRateLimitingQueue,
  runWorkers,
  type TypedRateLimitingInterface,
} from '@ctrlkit/workqueue';
import type { ResourceV1ResourceClaim, V1Pod } from '@kubernetes/client-node';
import type { PodResources } from '../adapter.js';
import { isTerminal } from '../internal/sync-provider-wrapper.js';
import type { InformerLike, PodResourcePreparer } from '../pod-controller-config.js';
import { type ClaimInfo, claimRef, containerCdiDevices } from './claim-info.js';
import {
  claimDrivers,
  hasResourceClaims,
  podClaimNames,
  RESOURCE_CLAIMS,
  readReservedClaim,
} from './claim-resolver.js';
import { DraError } from './dra-error.js';
import type { PluginWatcher } from './plugin-watcher.js';

/** Options of {@link DraManager}. */
export interface DraManagerOptions {
  /** Reads ResourceClaims (get). Required. */
  client: ClientSource;
  /** The registered plugins. Required; run by the caller. */
  plugins: Pick<PluginWatcher, 'plugin' | 'onRegistered'>;
  /** The pods bound to the node (the pod controller's). Required; started by the caller. */
  podInformer: InformerLike<Wire<V1Pod>>;
  /** Default: the real clock. */
  clock?: Clock;
  /** Default: no logging. */
  logger?: Logger;
}

/**
 * The node's DRA side, given to the `PodController` as its `resourcePreparer`. Before a pod
 * with `spec.resourceClaims` is created in the provider, {@link DraManager.preparePod}
 * resolves its claims, checks each is allocated and reserved for the pod, calls
 * `NodePrepareResources` on each driver of a claim not prepared yet, and gives each container
 * its CDI device IDs. Once no pod of the node that is not terminal uses a claim (a pod
 * turned Succeeded or Failed, or deleted), {@link DraManager.run} calls
 * `NodeUnprepareResources` on its drivers, retried with backoff until it succeeds.
 *
 * Guarantees: a claim is prepared once while the process runs, however many pods share it;
 * after a restart, claims of live pods are prepared again when their pods are synced
 * (plugins are idempotent, as the kubelet requires), and claims of pods found terminal are
 * unprepared. Caveat: a claim whose pods were deleted while the process was down, and that
 * was deallocated since, is not known to be prepared (the kubelet keeps a checkpoint for it).
 */
export class DraManager implements PodResourcePreparer {
  readonly #client: Client;
  readonly #plugins: DraManagerOptions['plugins'];
  readonly #informer: InformerLike<Wire<V1Pod>>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #claims = new Map<string, ClaimInfo>();
  readonly #waiting = new Map<string, Set<() => void>>();
  /** Prepares in flight, by claim UID. */
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #queue: TypedRateLimitingInterface<string>;

  constructor(options: DraManagerOptions) {
    this.#client = toClient(options.client, 'client');
    this.#plugins = options.plugins;
    this.#informer = options.podInformer;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
    this.#queue = newTypedRateLimitingQueue<string>(
      defaultControllerRateLimiter<string>({ clock: this.#clock }),
      { name: 'draUnprepareClaims', clock: this.#clock },
    );
    this.#plugins.onRegistered((driver) => {
      const waiters = this.#waiting.get(driver);
      this.#waiting.delete(driver);
      for (const requeue of waiters ?? []) requeue();
    });
  }

  /** The UIDs of the claims prepared (every driver done) on this node. */
  preparedClaims(): string[] {
    return [...this.#claims.values()].filter((c) => c.prepared).map((c) => c.claim.uid);
  }

  /**
   * Prepares the claims of `pod` and returns its containers' CDI devices. Throws
   * {@link DraError} naming the claim and why; when a driver is missing, `requeue` is called
   * once it registers.
   */
  async preparePod(
    _signal: AbortSignal,
    pod: Wire<V1Pod>,
    requeue: () => void,
  ): Promise<PodResources> {
    const namespace = pod.metadata?.namespace ?? '';
    const podUid = pod.metadata?.uid ?? '';
    const byEntry = new Map<string, ClaimInfo>();
    for (const { podClaimName, claimName } of podClaimNames(pod)) {
      const claim = await readReservedClaim(this.#client, namespace, claimName, podUid);
      const uid = claim.metadata?.uid ?? '';
      let info = this.#claims.get(uid);
      if (info === undefined) {
        info = {
          claim: { uid, namespace, name: claimName },
          drivers: claimDrivers(claim),
          devices: [],
          prepared: false,
          pods: new Set(),
        };
        this.#claims.set(uid, info);
      }
      info.pods.add(podUid);
      if (!info.prepared) await this.#prepareOnce(info, requeue);
      byEntry.set(podClaimName, info);
    }
    return { cdiDevices: containerCdiDevices(pod, byEntry) };
  }

  /** Prepares `info` unless a prepare of it is in flight (pods sharing a claim sync at once): then waits for that one. */
  async #prepareOnce(info: ClaimInfo, requeue: () => void): Promise<void> {
    const inFlight = this.#inFlight.get(info.claim.uid) ?? this.#prepare(info);
    this.#inFlight.set(info.claim.uid, inFlight);
    try {
      await inFlight;
    } catch (error) {
      if (DraError.isInstance(error) && error.reason === 'DriverNotRegistered' && error.driver) {
        const waiters = this.#waiting.get(error.driver) ?? new Set();
        waiters.add(requeue);
        this.#waiting.set(error.driver, waiters);
      }
      throw error;
    } finally {
      if (this.#inFlight.get(info.claim.uid) === inFlight) this.#inFlight.delete(info.claim.uid);
    }
  }

  async #prepare(info: ClaimInfo): Promise<void> {
    const ref = claimRef(info.claim);
    const started = this.#clock.now();
    const devices: WireDevice[] = [];
    for (const driver of info.drivers) {
      const plugin = this.#plugins.plugin(driver);
      if (plugin === undefined) {
        throw new DraError('DriverNotRegistered', ref, `driver ${driver} is not registered`, {
          driver,
        });
      }
      let result: { devices: WireDevice[]; error: string } | undefined;
      try {
        result = (await plugin.client.nodePrepareResources([info.claim])).claims[info.claim.uid];
      } catch (error) {
        throw new DraError('PrepareFailed', ref, `driver ${driver}: ${errorMessage(error)}`, {
          cause: error,
          driver,
        });
      }
      if (result === undefined)
        throw new DraError('PrepareFailed', ref, `driver ${driver}: no result for the claim`, {
          driver,
        });
      if (result.error)
        throw new DraError('PrepareFailed', ref, `driver ${driver}: ${result.error}`, { driver });
      devices.push(...result.devices);
    }
    info.devices = devices;
    info.prepared = true;
    const prepareMs = this.#clock.now() - started;
    this.#logger.info(
      { claim: ref, uid: info.claim.uid, devices: devices.length, prepareMs },
      'prepared',
    );
  }

  /**
   * Waits for the pod informer to sync, queues the claims of the pods found terminal, then
   * unprepares claims no live pod uses until `signal` aborts.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (!(await this.#informer.whenSynced(signal))) return;
    // Pods already terminal when this process started: their claims may still be prepared.
    for (const pod of this.#informer.indexer.list() as Wire<V1Pod>[]) {
      if (hasResourceClaims(pod) && isTerminal(pod)) void this.#recover(pod);
    }
    const registration = this.#informer.addEventHandler({
      onAdd: (pod) => this.#podChanged(pod),
      onUpdate: (_old, pod) => this.#podChanged(pod),
      onDelete: (obj) =>
        this.#podGone(DeletedFinalStateUnknown.isInstance<Wire<V1Pod>>(obj) ? obj.obj : obj),
    });
    try {
      await runWorkers(this.#queue, (uid) => this.#unprepare(uid), {
        workers: 1,
        signal,
        clock: this.#clock,
        logger: this.#logger,
        shouldRetry: () => undefined,
      });
    } finally {
      registration.remove();
    }
  }

  #podChanged(pod: Wire<V1Pod>): void {
    if (hasResourceClaims(pod) && isTerminal(pod)) this.#podGone(pod);
  }

  #podGone(pod: Wire<V1Pod>): void {
    const uid = pod.metadata?.uid ?? '';
    for (const info of this.#claims.values()) {
      if (info.pods.has(uid)) this.#queue.add(info.claim.uid);
    }
  }

  /** A pod found terminal at start (this process restarted): learns its claims from the API and queues them. */
  async #recover(pod: Wire<V1Pod>): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    let names: ReturnType<typeof podClaimNames>;
    try {
      names = podClaimNames(pod);
    } catch {
      return;
    }
    for (const { claimName } of names) {
      try {
        const claim = await this.#client.get<ResourceV1ResourceClaim>(RESOURCE_CLAIMS, claimName, {
          namespace,
        });
        const uid = claim.metadata?.uid ?? '';
        const drivers = claimDrivers(claim);
        if (drivers.length === 0 || this.#claims.has(uid)) continue;
        const claimInfo = { uid, namespace, name: claimName };
        const pods = new Set([pod.metadata?.uid ?? '']);
        this.#claims.set(uid, { claim: claimInfo, drivers, devices: [], prepared: false, pods });
        this.#queue.add(uid);
      } catch (error) {
        this.#logger.debug({ err: error, claim: `${namespace}/${claimName}` }, 'not recovered');
      }
    }
  }

  /** True while a pod of the node that is not terminal names the claim. */
  #inUse(claim: WireClaim): boolean {
    const pods = this.#informer.indexer.list() as Wire<V1Pod>[];
    return pods.some((pod) => {
      if (pod.metadata?.namespace !== claim.namespace || isTerminal(pod)) return false;
      try {
        return podClaimNames(pod).some((n) => n.claimName === claim.name);
      } catch {
        return false;
      }
    });
  }

  async #unprepare(uid: string): Promise<void> {
    const info = this.#claims.get(uid);
    if (info === undefined || this.#inUse(info.claim)) return;
    const ref = claimRef(info.claim);
    for (const driver of info.drivers) {
      const plugin = this.#plugins.plugin(driver);
      if (plugin === undefined)
        throw new DraError('DriverNotRegistered', ref, `driver ${driver} is not registered`, {
          driver,
        });
      let error: string | undefined;
      try {
        error = (await plugin.client.nodeUnprepareResources([info.claim])).claims[uid]?.error;
      } catch (callError) {
        error = errorMessage(callError);
      }
      if (error) {
        this.#logger.warn({ claim: ref, driver, error }, 'unprepare failed; retrying');
        throw new DraError('UnprepareFailed', ref, `driver ${driver}: ${error}`, { driver });
      }
    }
    this.#claims.delete(uid);
    this.#logger.info({ claim: ref, uid }, 'unprepared');
  }
}
