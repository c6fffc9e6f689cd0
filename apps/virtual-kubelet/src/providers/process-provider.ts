//! The `process` provider: each container of a pod runs as a local child process.

import { spawn } from 'node:child_process';
import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/core';
import {
  type NodeProvider,
  notFound,
  type PodLifecycleHandler,
  type PodNotifier,
  type PodResources,
} from '@ctrlkit/node-controller';
import { formatTime, type Wire } from '@ctrlkit/runtime/client';
import type { V1Node, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { addCdiEnv, type CdiOptions } from './cdi-edits.js';
import { ContainerLog, type ContainerLogOptions } from './container-log.js';
import { CpuCounters } from './cpu-counters.js';
import { killMarkedProcesses } from './marked-processes.js';
import { type Container, containerStatus, goDuration, newContainer } from './process-container.js';
import { DEFAULT_PING_COMMAND, runPingCommand } from './process-ping.js';
import { processCpuNs, rssBytes } from './process-stats.js';
import { DEFAULT_MOCK_CAPACITY, type ProviderCapacity } from './provider-capacity.js';
import { podStats, type StatsSummary, statsSummary } from './stats-summary.js';
import { stopProcess } from './stop-process.js';

export { LOG_BUFFER_BYTES } from './container-log.js';

/** First delay before restarting a container, in ms: 10 s, doubling up to {@link MAX_RESTART_BACKOFF_MS} (the kubelet's CrashLoopBackOff). */
export const INITIAL_RESTART_BACKOFF_MS = 10_000;
/** The longest restart delay, in ms: 5 min, as the kubelet's. */
export const MAX_RESTART_BACKOFF_MS = 300_000;
/** A back-off not used for this long (2 × the longest delay, as the kubelet's) starts again at {@link INITIAL_RESTART_BACKOFF_MS}. */
const RESTART_BACKOFF_RESET_MS = 2 * MAX_RESTART_BACKOFF_MS;
/** The environment entry naming the node that every container process gets ({@link ProcessProvider.killLeftovers}). */
export const NODE_ENV_MARKER = 'CTRLKIT_VIRTUAL_KUBELET_NODE';
/** Grace period in s when a pod gives none. */
const DEFAULT_GRACE_SECONDS = 30;

/** Options of {@link ProcessProvider}. */
export interface ProcessProviderOptions {
  /** The node's InternalIP; also every pod's IP. Required. */
  internalIP: string;
  /** Default 10250. */
  daemonEndpointPort?: number;
  /** Capacity (and allocatable) of the node: cpu, memory, pods and any other resources. Default {@link DEFAULT_MOCK_CAPACITY}. */
  capacity?: ProviderCapacity;
  /** The node's name, in each container's `NODE_ENV_MARKER`. Default: none (no marker, no leftovers found). */
  nodeName?: string;
  /** What {@link ProcessProvider.ping} runs (file and arguments, no shell). Default `DEFAULT_PING_COMMAND` (`node --version`). */
  pingCommand?: readonly string[];
  /** Where `createPod`'s CDI devices are resolved. Default: {@link CdiOptions}' defaults. */
  cdi?: CdiOptions;
  /** Default: the real clock. */
  clock?: Clock;
}

interface RunningPod {
  pod: Wire<V1Pod>;
  initContainers: Container[];
  containers: Container[];
  /** All init containers completed (or there are none). */
  initialized: boolean;
  /** An init container failed under restartPolicy Never: the pod failed. */
  initFailed: boolean;
  deleting: boolean;
  startTime: Date;
}

/**
 * Runs each container as a child process: `command` + `args` with the resolved env (no
 * image is pulled; a container needs a `command`). Init containers run one after the other
 * to completion before the app containers (a failing one is restarted, or fails the pod
 * under restartPolicy Never, as the kubelet). The restart policy is honoured (Always,
 * OnFailure, Never, with the kubelet's back-off), exit codes become terminated states
 * (`Completed` for 0, else `Error`), stdout/stderr are kept (the last
 * {@link LOG_BUFFER_BYTES} of the current and the previous run per container) for
 * {@link ProcessProvider.getContainerLogs}, and CPU and memory come from /proc.
 */
export class ProcessProvider implements PodLifecycleHandler, PodNotifier, NodeProvider {
  readonly #pods = new Map<string, RunningPod>();
  readonly #internalIP: string;
  readonly #port: number;
  readonly #capacity: ProviderCapacity;
  readonly #clock: Clock;
  readonly #nodeName: string | undefined;
  readonly #pingCommand: readonly string[];
  readonly #cdi: CdiOptions;
  readonly #startTime = new Date();
  readonly #cpu = new CpuCounters();
  #notify: (pod: Wire<V1Pod>) => void = () => {};

  constructor(options: ProcessProviderOptions) {
    if (typeof options?.internalIP !== 'string' || options.internalIP === '') {
      throw new InvalidArgumentError('internalIP', 'must be an IP address');
    }
    this.#internalIP = options.internalIP;
    this.#nodeName = options.nodeName || undefined;
    this.#port = options.daemonEndpointPort ?? 10250;
    this.#capacity = { ...(options.capacity ?? DEFAULT_MOCK_CAPACITY) };
    this.#clock = options.clock ?? realClock;
    const pingCommand = options.pingCommand ?? DEFAULT_PING_COMMAND;
    if (pingCommand.length === 0 || pingCommand[0] === '') {
      throw new InvalidArgumentError('pingCommand', 'must name a program to run');
    }
    this.#pingCommand = pingCommand;
    this.#cdi = options.cdi ?? {};
  }

  /**
   * The node's heartbeat (`NodeProvider.ping`): starts a child process ({@link
   * ProcessProviderOptions.pingCommand}) and waits for it to exit 0, since that is what every
   * container needs. Rejects when it cannot, or with `signal`'s reason (the child killed).
   */
  ping(signal: AbortSignal): Promise<void> {
    return runPingCommand(this.#pingCommand, signal);
  }

  /** A no-op: the node's status changes only through {@link configureNode}. */
  notifyNodeStatus(_signal: AbortSignal, _callback: (node: Wire<V1Node>) => void): void {}

  /** Capacity, conditions, address and kubelet port of the node. */
  configureNode(node: Wire<V1Node>): void {
    const now = formatTime(Date.now());
    node.status = {
      ...node.status,
      capacity: { ...this.#capacity },
      allocatable: { ...this.#capacity },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is ready.',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      addresses: [{ type: 'InternalIP', address: this.#internalIP }],
      daemonEndpoints: { kubeletEndpoint: { Port: this.#port } },
    };
  }

  /**
   * SIGKILLs the container processes an earlier run of this node left (killed or stopped: it
   * cannot adopt them, and the pods start afresh; else each would run twice), found by
   * `NODE_ENV_MARKER` (Linux `/proc`; elsewhere, or without `nodeName`, none). Returns
   * how many; throws once this provider runs a pod (it would find that pod's processes too).
   */
  killLeftovers(): number {
    if (this.#nodeName === undefined) return 0;
    if (this.#pods.size > 0) throw new Error('killLeftovers must come before the first pod');
    return killMarkedProcesses(NODE_ENV_MARKER, this.#nodeName);
  }

  notifyPods(_signal: AbortSignal, callback: (pod: Wire<V1Pod>) => void): void {
    this.#notify = callback;
  }

  /** Runs `pod`; each container's CDI devices in `resources` add their env (`addCdiEnv`). */
  async createPod(_signal: AbortSignal, pod: Wire<V1Pod>, resources?: PodResources): Promise<void> {
    const k = key(pod.metadata?.namespace, pod.metadata?.name);
    if (this.#pods.has(k)) return;
    const initContainers = (pod.spec?.initContainers ?? []).map((c) => newContainer(c, true));
    const containers = (pod.spec?.containers ?? []).map((c) => newContainer(c, false));
    await addCdiEnv([...initContainers, ...containers], resources, this.#cdi);
    if (this.#pods.has(k)) return;
    const running: RunningPod = {
      pod: structuredClone(pod),
      initContainers,
      containers,
      initialized: initContainers.length === 0,
      initFailed: false,
      deleting: false,
      startTime: new Date(),
    };
    if (!running.initialized) {
      for (const c of containers) c.state = { waiting: { reason: 'PodInitializing' } };
    }
    this.#pods.set(k, running);
    this.#startNext(running);
    this.#report(running);
  }

  /** Starts the first init container not yet completed, or every app container once all completed. */
  #startNext(running: RunningPod): void {
    if (running.deleting) return;
    const pending = running.initContainers.find((c) => c.state.terminated?.exitCode !== 0);
    if (pending !== undefined) {
      this.#start(running, pending);
      return;
    }
    running.initialized = true;
    for (const container of running.containers) this.#start(running, container);
  }

  async updatePod(_signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    const running = this.#pods.get(key(pod.metadata?.namespace, pod.metadata?.name));
    if (running === undefined)
      throw notFound(
        `pod "${pod.metadata?.namespace}/${pod.metadata?.name}" is not known to the provider`,
      );
    running.pod = { ...structuredClone(pod), status: running.pod.status };
    this.#report(running);
  }

  async deletePod(_signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    const k = key(pod.metadata?.namespace, pod.metadata?.name);
    const running = this.#pods.get(k);
    if (running === undefined) throw notFound(`pod "${k}" is not known to the provider`);
    running.deleting = true;
    const graceMs =
      (pod.metadata?.deletionGracePeriodSeconds ??
        pod.spec?.terminationGracePeriodSeconds ??
        DEFAULT_GRACE_SECONDS) * 1000;
    await Promise.all(
      [...running.initContainers, ...running.containers].map((c) =>
        stopProcess(c.process, graceMs, this.#clock),
      ),
    );
    this.#pods.delete(k);
    this.#cpu.forget(`${k}/`);
    const status = this.#status(running);
    status.phase = status.phase === 'Failed' ? 'Failed' : 'Succeeded';
    this.#notify({ ...structuredClone(running.pod), status });
  }

  async getPod(
    _signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1Pod> | undefined> {
    const running = this.#pods.get(key(namespace, name));
    if (running === undefined)
      throw notFound(`pod "${namespace}/${name}" is not known to the provider`);
    return { ...structuredClone(running.pod), status: this.#status(running) };
  }

  async getPodStatus(
    signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1PodStatus> | undefined> {
    return (await this.getPod(signal, namespace, name))?.status;
  }

  async getPods(): Promise<Wire<V1Pod>[]> {
    return [...this.#pods.values()].map((r) => ({
      ...structuredClone(r.pod),
      status: this.#status(r),
    }));
  }

  /**
   * The kept output of a container (stdout and stderr interleaved), of its previous run with
   * `previous`, limited by `tailLines` and `sinceSeconds` as the kubelet's `/containerLogs`.
   */
  getContainerLogs(
    namespace: string,
    name: string,
    container: string,
    options: ContainerLogOptions = {},
  ): string {
    return this.#containerLog(namespace, name, container, options.previous).read(
      options,
      this.#clock.now(),
    );
  }

  /**
   * Calls `onData` with each chunk the container writes from now on and `onEnd` when its
   * current run ends (at once when it is not running); returns the unsubscribe.
   */
  followContainerLogs(
    namespace: string,
    name: string,
    container: string,
    onData: (text: string) => void,
    onEnd: () => void,
  ): () => void {
    return this.#containerLog(namespace, name, container, false).follow(onData, onEnd);
  }

  #containerLog(
    namespace: string,
    name: string,
    container: string,
    previous = false,
  ): ContainerLog {
    const running = this.#pods.get(key(namespace, name));
    const c = running && allContainers(running).find((x) => x.name === container);
    if (c === undefined)
      throw notFound(`container "${container}" of pod "${namespace}/${name}" is not known`);
    if (!previous) return c.log;
    if (c.previousLog === undefined)
      throw notFound(`previous terminated container "${container}" in pod "${name}" not found`);
    return c.previousLog;
  }

  /**
   * Memory (RSS) and CPU of each container's process, from /proc; the cumulative CPU time
   * includes the container's earlier runs and never decreases, for a container, a pod or
   * the node (a deleted pod's time stays in the node's).
   */
  getStatsSummary(nodeName: string): StatsSummary {
    const nowMs = this.#clock.now();
    const time = new Date(nowMs).toISOString();
    const pods = [...this.#pods.entries()].map(([k, r]) => {
      const stats = allContainers(r).map((c) => {
        const id = `${k}/${c.name}`;
        const totalNs = this.#cpu.observe(id, c.cpuBaseNs + processCpuNs(c.process?.pid), nowMs);
        const bytes = rssBytes(c.process?.pid);
        return {
          name: c.name,
          startTime: r.startTime.toISOString(),
          cpu: { time, usageNanoCores: this.#cpu.nanoCores(id), usageCoreNanoSeconds: totalNs },
          memory: { time, usageBytes: bytes, workingSetBytes: bytes },
        };
      });
      // Init containers count in the pod's figures; only the app containers are listed.
      const listed = stats.slice(r.initContainers.length);
      return podStats(r.pod, r.startTime.toISOString(), time, listed, stats);
    });
    return statsSummary(nodeName, this.#startTime, time, this.#cpu.nodeNs, pods);
  }

  #start(running: RunningPod, c: Container): void {
    if (c.runs > 0) {
      c.previousLog = c.log;
      c.log = new ContainerLog();
    }
    c.runs++;
    const [file = '', ...args] = c.command;
    const child = spawn(file, args, {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ...c.env,
        ...(this.#nodeName !== undefined && { [NODE_ENV_MARKER]: this.#nodeName }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    c.process = child;
    const log = c.log;
    const keep = (chunk: Buffer): void => log.write(chunk, this.#clock.now());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const startedAt = formatTime(Date.now());
    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
      c.state = { running: { startedAt } };
      this.#report(running);
    });
    const finish = (exitCode: number, reason: string, message?: string): void => {
      c.process = undefined;
      c.cpuBaseNs = this.#cpu.total(containerId(running, c));
      log.end();
      c.state = {
        terminated: {
          exitCode,
          reason,
          message,
          startedAt: spawned ? startedAt : undefined,
          finishedAt: formatTime(Date.now()),
        },
      };
      this.#report(running);
      if (c.init) this.#initFinished(running, c, exitCode);
      else this.#maybeRestart(running, c, exitCode);
    };
    child.once('error', (error) => {
      if (!spawned) finish(128, 'StartError', error.message);
    });
    child.once('exit', (code, signal) => {
      if (!spawned) return;
      const exitCode = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
      finish(exitCode, exitCode === 0 ? 'Completed' : 'Error');
    });
  }

  /**
   * As the kubelet: a completed init container starts the next one (or the app containers);
   * a failed one fails the pod under restartPolicy Never and is restarted otherwise.
   */
  #initFinished(running: RunningPod, c: Container, exitCode: number): void {
    if (running.deleting || !this.#pods.has(podKey(running))) return;
    if (exitCode === 0) {
      this.#startNext(running);
      this.#report(running);
    } else if ((running.pod.spec?.restartPolicy ?? 'Always') === 'Never') {
      running.initFailed = true;
      this.#report(running);
    } else {
      this.#restart(running, c);
    }
  }

  #maybeRestart(running: RunningPod, c: Container, exitCode: number): void {
    if (running.deleting || !this.#pods.has(podKey(running))) return;
    const policy = running.pod.spec?.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && exitCode === 0)) return;
    this.#restart(running, c);
  }

  /**
   * Restarts `c` with the kubelet's back-off: at once the first time, then after 10 s,
   * doubling up to 5 min (waiting in `CrashLoopBackOff`); a back-off unused for 10 min
   * starts over.
   */
  #restart(running: RunningPod, c: Container): void {
    const nowMs = this.#clock.now();
    if (c.backoffAtMs !== undefined && nowMs - c.backoffAtMs > RESTART_BACKOFF_RESET_MS) {
      c.backoffMs = 0;
    }
    const delay = c.backoffMs;
    c.backoffMs =
      delay === 0 ? INITIAL_RESTART_BACKOFF_MS : Math.min(delay * 2, MAX_RESTART_BACKOFF_MS);
    c.backoffAtMs = nowMs;
    c.lastState = c.state;
    const restart = (): void => {
      if (running.deleting) return;
      c.restartCount++;
      this.#start(running, c);
    };
    if (delay === 0) {
      restart();
      return;
    }
    c.state = {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${goDuration(delay)} restarting failed container=${c.name} pod=${running.pod.metadata?.name}_${running.pod.metadata?.namespace}(${running.pod.metadata?.uid ?? ''})`,
      },
    };
    this.#report(running);
    this.#clock.setTimer(restart, delay);
  }

  #status(running: RunningPod): Wire<V1PodStatus> {
    const policy = running.pod.spec?.restartPolicy ?? 'Always';
    const terminated = running.containers.every((c) => c.state.terminated !== undefined);
    const failed = running.containers.some((c) => (c.state.terminated?.exitCode ?? 0) !== 0);
    let phase: string;
    if (running.initFailed) phase = 'Failed';
    else if (!running.initialized) phase = 'Pending';
    else if (running.containers.some((c) => c.state.running !== undefined)) phase = 'Running';
    else if (terminated && (policy === 'Never' || (policy === 'OnFailure' && !failed)))
      phase = failed ? 'Failed' : 'Succeeded';
    else if (running.containers.some((c) => c.restartCount > 0 || c.lastState !== undefined))
      phase = 'Running';
    else phase = 'Pending';
    const statuses = running.containers.map(containerStatus);
    const ready = phase === 'Running' && statuses.every((s) => s.ready);
    const initialized = running.initialized
      ? { type: 'Initialized', status: 'True' }
      : { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized' };
    return {
      phase,
      hostIP: this.#internalIP,
      podIP: this.#internalIP,
      podIPs: [{ ip: this.#internalIP }],
      startTime: formatTime(running.startTime),
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        initialized,
        { type: 'ContainersReady', status: ready ? 'True' : 'False' },
        { type: 'Ready', status: ready ? 'True' : 'False' },
      ],
      ...(running.initContainers.length > 0 && {
        initContainerStatuses: running.initContainers.map((c) => ({
          ...containerStatus(c),
          ready: c.state.terminated?.exitCode === 0,
        })),
      }),
      containerStatuses: statuses,
    };
  }

  #report(running: RunningPod): void {
    if (!this.#pods.has(podKey(running))) return;
    this.#notify({ ...structuredClone(running.pod), status: this.#status(running) });
  }
}

function allContainers(running: RunningPod): Container[] {
  return [...running.initContainers, ...running.containers];
}

function podKey(running: RunningPod): string {
  return key(running.pod.metadata?.namespace, running.pod.metadata?.name);
}

function containerId(running: RunningPod, c: Container): string {
  return `${podKey(running)}/${c.name}`;
}

function key(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}
