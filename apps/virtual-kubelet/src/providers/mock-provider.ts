//! The `mock` provider: pods "run" in memory, reported as virtual-kubelet's mock provider reports them.

import { type Clock, InvalidArgumentError, realClock, sleep } from '@ctrlkit/core';
import {
  type NodeProvider,
  notFound,
  type PodLifecycleHandler,
  type PodNotifier,
  type PodResources,
} from '@ctrlkit/node-controller';
import { formatTime, type Wire } from '@ctrlkit/runtime/client';
import type { V1Node, V1NodeCondition, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { CpuCounters } from './cpu-counters.js';
import { DEFAULT_MOCK_CAPACITY, type ProviderCapacity } from './provider-capacity.js';
import { podStats, type StatsSummary, statsSummary } from './stats-summary.js';

/** Options of {@link MockProvider}. */
export interface MockProviderOptions {
  /** The node's InternalIP. Required. */
  internalIP: string;
  /** The kubelet port written into the node's daemonEndpoints. Default 10250. */
  daemonEndpointPort?: number;
  /** Capacity (and allocatable): cpu, memory, pods and any other resources. Default {@link DEFAULT_MOCK_CAPACITY}. */
  capacity?: ProviderCapacity;
  /** The node's `nodeInfo.operatingSystem` (lower case, as the kubelet's GOOS). Default `linux`. */
  operatingSystem?: string;
  /** Ms before a created pod reports Running. Default 0 (at once). */
  startLatencyMs?: number;
  /**
   * Ms each {@link MockProvider.ping} takes, for failure injection: longer than the node
   * controller's ping timeout makes every ping fail. Default 0 (at once, as upstream's mock).
   */
  pingLatencyMs?: number;
  /** Fraction (0..1) of createPod calls that fail, for failure injection. Default 0. */
  createFailureRate?: number;
  /**
   * Fraction (0..1) of createPod calls that hang: they return only when their signal aborts
   * (rejecting with its reason; the pod controller's `providerTimeoutMs` aborts it), for
   * failure injection. Drawn after `createFailureRate`. Default 0.
   */
  hangRate?: number;
  /** Default: the real clock. */
  clock?: Clock;
  /** Default: `Math.random`. */
  random?: () => number;
}

/**
 * A provider whose pods run in memory (virtual-kubelet's mock): a created pod is Running
 * with PodIP 5.6.7.8, HostIP 1.2.3.4, conditions Initialized/Ready/PodScheduled and running
 * containers; each container's `containerID` (`mock://<namespace>/<name>/create-<n>`) names
 * which createPod call of the pod (by UID, counting failed, hung and abandoned ones) started
 * it, and its `restartCount` how many times the pod's containers were started before (0
 * unless a second call started them again); a deleted pod is gone at once, reported Succeeded with reason
 * `MockProviderPodDeleted` and its containers terminated (`MockProviderPodContainerDeleted`).
 */
export class MockProvider implements PodLifecycleHandler, PodNotifier, NodeProvider {
  readonly #pods = new Map<string, Wire<V1Pod>>();
  readonly #options: Required<Omit<MockProviderOptions, 'capacity'>> & {
    capacity: ProviderCapacity;
  };
  readonly #startTime = new Date();
  readonly #cpu = new CpuCounters();
  /** createPod calls, and container starts, per pod UID (or namespace/name without one). */
  readonly #creates = new Map<string, number>();
  readonly #starts = new Map<string, number>();
  /** What createPod was given besides each pod (CDI devices of its claims), by namespace/name. */
  readonly #resources = new Map<string, PodResources>();
  #notify: (pod: Wire<V1Pod>) => void = () => {};

  constructor(options: MockProviderOptions) {
    if (typeof options?.internalIP !== 'string' || options.internalIP === '') {
      throw new InvalidArgumentError('internalIP', 'must be an IP address');
    }
    const rate = options.createFailureRate ?? 0;
    if (!(rate >= 0 && rate <= 1))
      throw new InvalidArgumentError('createFailureRate', `must be in [0, 1], got ${rate}`);
    const hangRate = options.hangRate ?? 0;
    if (!(hangRate >= 0 && hangRate <= 1))
      throw new InvalidArgumentError('hangRate', `must be in [0, 1], got ${hangRate}`);
    const latency = options.startLatencyMs ?? 0;
    if (!(latency >= 0) || !Number.isFinite(latency)) {
      throw new InvalidArgumentError(
        'startLatencyMs',
        `must be a number of ms >= 0, got ${latency}`,
      );
    }
    const pingLatency = options.pingLatencyMs ?? 0;
    if (!(pingLatency >= 0) || !Number.isFinite(pingLatency)) {
      throw new InvalidArgumentError(
        'pingLatencyMs',
        `must be a number of ms >= 0, got ${pingLatency}`,
      );
    }
    this.#options = {
      internalIP: options.internalIP,
      pingLatencyMs: pingLatency,
      daemonEndpointPort: options.daemonEndpointPort ?? 10250,
      capacity: options.capacity ?? { ...DEFAULT_MOCK_CAPACITY },
      operatingSystem: options.operatingSystem ?? 'linux',
      startLatencyMs: latency,
      createFailureRate: rate,
      hangRate,
      clock: options.clock ?? realClock,
      random: options.random ?? Math.random,
    };
  }

  /** Fills the node's capacity, conditions, addresses and daemon endpoints (the mock's `ConfigureNode`). */
  configureNode(node: Wire<V1Node>): void {
    const { capacity, internalIP, daemonEndpointPort, operatingSystem } = this.#options;
    node.status = {
      ...node.status,
      capacity: { ...capacity },
      allocatable: { ...capacity },
      conditions: nodeConditions(),
      addresses: [{ type: 'InternalIP', address: internalIP }],
      daemonEndpoints: { kubeletEndpoint: { Port: daemonEndpointPort } },
      nodeInfo: {
        operatingSystem,
        architecture: 'amd64',
        kubeletVersion: 'v1.37.2-ctrlkit',
        bootID: '',
        containerRuntimeVersion: 'mock://1',
        kernelVersion: '',
        kubeProxyVersion: '',
        machineID: '',
        osImage: '',
        systemUUID: '',
      },
    };
  }

  /**
   * The node's heartbeat (`NodeProvider.ping`): answers after `pingLatencyMs` (at once by
   * default); rejects with `signal`'s reason when it aborts.
   */
  async ping(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#options.pingLatencyMs > 0) {
      await sleep(this.#options.clock, this.#options.pingLatencyMs, signal);
      signal.throwIfAborted();
    }
  }

  /** A no-op: the node's status changes only through {@link configureNode}. */
  notifyNodeStatus(_signal: AbortSignal, _callback: (node: Wire<V1Node>) => void): void {}

  notifyPods(_signal: AbortSignal, callback: (pod: Wire<V1Pod>) => void): void {
    this.#notify = callback;
  }

  /** Records `resources` (the CDI devices of the pod's claims, see {@link podResources}) and runs the pod. */
  async createPod(signal: AbortSignal, pod: Wire<V1Pod>, resources?: PodResources): Promise<void> {
    if (resources !== undefined)
      this.#resources.set(key(pod.metadata?.namespace, pod.metadata?.name), resources);
    const id = pod.metadata?.uid ?? key(pod.metadata?.namespace, pod.metadata?.name);
    const create = (this.#creates.get(id) ?? 0) + 1;
    this.#creates.set(id, create);
    if (
      this.#options.createFailureRate > 0 &&
      this.#options.random() < this.#options.createFailureRate
    ) {
      throw new Error('mock provider: injected create failure');
    }
    if (this.#options.hangRate > 0 && this.#options.random() < this.#options.hangRate) {
      await new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    if (this.#options.startLatencyMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = this.#options.clock.setTimer(resolve, this.#options.startLatencyMs);
        signal.addEventListener(
          'abort',
          () => {
            timer.cancel();
            resolve();
          },
          { once: true },
        );
      });
    }
    const restartCount = this.#starts.get(id) ?? 0;
    this.#starts.set(id, restartCount + 1);
    const containerID = `mock://${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}/create-${create}`;
    const now = formatTime(Date.now());
    // `pod` is the provider's (the controller passes a copy it keeps no reference to), and the
    // objects notified are read-only to the callback: the mock keeps and reports them as they
    // are, as upstream's mock keeps the pointer it is given, without a copy per pod.
    const running: Wire<V1Pod> = { ...pod };
    running.status = {
      phase: 'Running',
      hostIP: '1.2.3.4',
      podIP: '5.6.7.8',
      podIPs: [{ ip: '5.6.7.8' }],
      startTime: now,
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
      containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
        name: c.name,
        image: c.image ?? '',
        imageID: '',
        containerID,
        ready: true,
        started: true,
        restartCount,
        state: { running: { startedAt: now } },
      })),
    };
    this.#pods.set(key(pod.metadata?.namespace, pod.metadata?.name), running);
    this.#notify(running);
  }

  async updatePod(_signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    const k = key(pod.metadata?.namespace, pod.metadata?.name);
    const old = this.#pods.get(k);
    const updated = { ...pod, status: old?.status ?? pod.status };
    this.#pods.set(k, updated);
    this.#notify(updated);
  }

  /** What the last createPod of the pod was given besides it (CDI devices by container); undefined when nothing. */
  podResources(namespace: string, name: string): PodResources | undefined {
    return this.#resources.get(key(namespace, name));
  }

  async deletePod(_signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    const k = key(pod.metadata?.namespace, pod.metadata?.name);
    if (!this.#pods.has(k)) throw notFound(`pod "${k}" is not known to the provider`);
    this.#pods.delete(k);
    this.#resources.delete(k);
    this.#cpu.forget(`${k}/`);
    const now = formatTime(Date.now());
    const deleted: Wire<V1Pod> = { ...pod };
    deleted.status = {
      ...pod.status,
      phase: 'Succeeded',
      reason: 'MockProviderPodDeleted',
      containerStatuses: (pod.status?.containerStatuses ?? []).map((cs) => ({
        ...cs,
        ready: false,
        state: {
          terminated: {
            exitCode: 0,
            reason: 'MockProviderPodContainerDeleted',
            message: 'Mock provider terminated container upon deletion',
            finishedAt: now,
            startedAt: cs.state?.running?.startedAt,
          },
        },
      })),
    };
    this.#notify(deleted);
  }

  async getPod(
    _signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1Pod> | undefined> {
    const pod = this.#pods.get(key(namespace, name));
    if (pod === undefined)
      throw notFound(`pod "${namespace}/${name}" is not known to the provider`);
    return structuredClone(pod);
  }

  async getPodStatus(
    signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1PodStatus> | undefined> {
    return (await this.getPod(signal, namespace, name))?.status;
  }

  async getPods(): Promise<Wire<V1Pod>[]> {
    return [...this.#pods.values()].map((p) => structuredClone(p));
  }

  /**
   * Node and pod usage figures (`GetStatsSummary`): usage in nano cores random as the mock's;
   * the cumulative CPU time grows from the pod's start at that usage, so it never decreases
   * for a container or the node.
   */
  getStatsSummary(nodeName: string): StatsSummary {
    const nowMs = this.#options.clock.now();
    const time = new Date(nowMs).toISOString();
    const random = this.#options.random;
    const memory = () => {
      const bytes = Math.floor(random() * 100_000_000) + 1;
      return { time, usageBytes: bytes, workingSetBytes: bytes };
    };
    const pods = [...this.#pods.entries()].map(([k, pod]) => {
      const startDate = new Date(pod.status?.startTime ?? this.#startTime);
      const started = startDate.toISOString();
      const containers = (pod.spec?.containers ?? []).map((c) => {
        const nano = Math.floor(random() * 10_000_000);
        const total = this.#cpu.accumulate(`${k}/${c.name}`, startDate.getTime(), nowMs, nano);
        return {
          name: c.name,
          startTime: started,
          cpu: { time, usageNanoCores: nano, usageCoreNanoSeconds: total },
          memory: memory(),
        };
      });
      return podStats(pod, started, time, containers);
    });
    return statsSummary(nodeName, this.#startTime, time, this.#cpu.nodeNs, pods);
  }
}

function nodeConditions(): Wire<V1NodeCondition>[] {
  const now = formatTime(Date.now());
  const c = (
    type: string,
    status: string,
    reason: string,
    message: string,
  ): Wire<V1NodeCondition> => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  });
  return [
    c('Ready', 'True', 'KubeletReady', 'kubelet is ready.'),
    c(
      'OutOfDisk',
      'False',
      'KubeletHasSufficientDisk',
      'kubelet has sufficient disk space available',
    ),
    c(
      'MemoryPressure',
      'False',
      'KubeletHasSufficientMemory',
      'kubelet has sufficient memory available',
    ),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'),
  ];
}

function key(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}
