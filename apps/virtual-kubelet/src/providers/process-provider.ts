//! The `process` provider: each container of a pod runs as a local child process.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/core';
import {
  invalidInput,
  notFound,
  type PodLifecycleHandler,
  type PodNotifier,
} from '@ctrlkit/node-controller';
import type {
  V1ContainerState,
  V1ContainerStatus,
  V1Node,
  V1Pod,
  V1PodStatus,
} from '@kubernetes/client-node';
import { DEFAULT_MOCK_CAPACITY, type StatsSummary } from './mock-provider.js';

/** First delay before restarting a container, in ms; doubles up to {@link MAX_RESTART_BACKOFF_MS} (the kubelet's CrashLoopBackOff). */
export const INITIAL_RESTART_BACKOFF_MS = 1_000;
/** The longest restart delay, in ms: 5 min, as the kubelet's. */
export const MAX_RESTART_BACKOFF_MS = 300_000;
/** Bytes of each container's output kept for logs. */
export const LOG_BUFFER_BYTES = 1 << 20;
/** Grace period in s when a pod gives none. */
const DEFAULT_GRACE_SECONDS = 30;

/** Options of {@link ProcessProvider}. */
export interface ProcessProviderOptions {
  /** The node's InternalIP; also every pod's IP. Required. */
  internalIP: string;
  /** Default 10250. */
  daemonEndpointPort?: number;
  /** Default: the real clock. */
  clock?: Clock;
}

interface Container {
  name: string;
  image: string;
  command: string[];
  env: Record<string, string>;
  process: ChildProcess | undefined;
  state: V1ContainerState;
  lastState: V1ContainerState | undefined;
  restartCount: number;
  backoffMs: number;
  logs: Buffer[];
  logBytes: number;
}

interface RunningPod {
  pod: V1Pod;
  containers: Container[];
  deleting: boolean;
  startTime: Date;
}

/**
 * Runs each container as a child process: `command` + `args` with the resolved env (no
 * image is pulled; a container needs a `command`). The restart policy is honoured
 * (Always, OnFailure, Never, with the kubelet's doubling back-off), exit codes become
 * terminated states (`Completed` for 0, else `Error`), and stdout/stderr are kept
 * (the last {@link LOG_BUFFER_BYTES} per container) for {@link ProcessProvider.getContainerLogs}.
 */
export class ProcessProvider implements PodLifecycleHandler, PodNotifier {
  readonly #pods = new Map<string, RunningPod>();
  readonly #internalIP: string;
  readonly #port: number;
  readonly #clock: Clock;
  readonly #startTime = new Date();
  #notify: (pod: V1Pod) => void = () => {};

  constructor(options: ProcessProviderOptions) {
    if (typeof options?.internalIP !== 'string' || options.internalIP === '') {
      throw new InvalidArgumentError('internalIP', 'must be an IP address');
    }
    this.#internalIP = options.internalIP;
    this.#port = options.daemonEndpointPort ?? 10250;
    this.#clock = options.clock ?? realClock;
  }

  /** Capacity, conditions, address and kubelet port of the node. */
  configureNode(node: V1Node): void {
    const now = new Date();
    node.status = {
      ...node.status,
      capacity: { ...DEFAULT_MOCK_CAPACITY },
      allocatable: { ...DEFAULT_MOCK_CAPACITY },
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

  notifyPods(_signal: AbortSignal, callback: (pod: V1Pod) => void): void {
    this.#notify = callback;
  }

  async createPod(_signal: AbortSignal, pod: V1Pod): Promise<void> {
    const k = key(pod.metadata?.namespace, pod.metadata?.name);
    if (this.#pods.has(k)) return;
    const containers: Container[] = [];
    for (const c of pod.spec?.containers ?? []) {
      const command = [...(c.command ?? []), ...(c.args ?? [])];
      if ((c.command ?? []).length === 0) {
        throw invalidInput(
          `container "${c.name}" has no command: the process provider runs commands, not images`,
        );
      }
      containers.push({
        name: c.name,
        image: c.image ?? '',
        command,
        env: Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? ''])),
        process: undefined,
        state: { waiting: { reason: 'ContainerCreating' } },
        lastState: undefined,
        restartCount: 0,
        backoffMs: INITIAL_RESTART_BACKOFF_MS,
        logs: [],
        logBytes: 0,
      });
    }
    const running: RunningPod = {
      pod: structuredClone(pod),
      containers,
      deleting: false,
      startTime: new Date(),
    };
    this.#pods.set(k, running);
    for (const container of containers) this.#start(running, container);
    this.#report(running);
  }

  async updatePod(_signal: AbortSignal, pod: V1Pod): Promise<void> {
    const running = this.#pods.get(key(pod.metadata?.namespace, pod.metadata?.name));
    if (running === undefined)
      throw notFound(
        `pod "${pod.metadata?.namespace}/${pod.metadata?.name}" is not known to the provider`,
      );
    running.pod = { ...structuredClone(pod), status: running.pod.status };
    this.#report(running);
  }

  async deletePod(_signal: AbortSignal, pod: V1Pod): Promise<void> {
    const k = key(pod.metadata?.namespace, pod.metadata?.name);
    const running = this.#pods.get(k);
    if (running === undefined) throw notFound(`pod "${k}" is not known to the provider`);
    running.deleting = true;
    const graceMs =
      (pod.metadata?.deletionGracePeriodSeconds ??
        pod.spec?.terminationGracePeriodSeconds ??
        DEFAULT_GRACE_SECONDS) * 1000;
    await Promise.all(running.containers.map((c) => stopProcess(c.process, graceMs, this.#clock)));
    this.#pods.delete(k);
    const status = this.#status(running);
    status.phase = status.phase === 'Failed' ? 'Failed' : 'Succeeded';
    this.#notify({ ...structuredClone(running.pod), status });
  }

  async getPod(_signal: AbortSignal, namespace: string, name: string): Promise<V1Pod | undefined> {
    const running = this.#pods.get(key(namespace, name));
    if (running === undefined)
      throw notFound(`pod "${namespace}/${name}" is not known to the provider`);
    return { ...structuredClone(running.pod), status: this.#status(running) };
  }

  async getPodStatus(
    signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<V1PodStatus | undefined> {
    return (await this.getPod(signal, namespace, name))?.status;
  }

  async getPods(): Promise<V1Pod[]> {
    return [...this.#pods.values()].map((r) => ({
      ...structuredClone(r.pod),
      status: this.#status(r),
    }));
  }

  /** The kept output of a container (stdout and stderr interleaved). */
  getContainerLogs(namespace: string, name: string, container: string): string {
    const running = this.#pods.get(key(namespace, name));
    const c = running?.containers.find((x) => x.name === container);
    if (c === undefined)
      throw notFound(`container "${container}" of pod "${namespace}/${name}" is not known`);
    return Buffer.concat(c.logs).toString('utf8');
  }

  /** Memory (RSS) of each container's process; CPU is not measured (0). */
  getStatsSummary(nodeName: string): StatsSummary {
    const time = new Date().toISOString();
    const cpu = { time, usageNanoCores: 0, usageCoreNanoSeconds: 0 };
    const pods = [...this.#pods.values()].map((r) => {
      const containers = r.containers.map((c) => {
        const bytes = rssBytes(c.process?.pid);
        return {
          name: c.name,
          startTime: r.startTime.toISOString(),
          cpu,
          memory: { time, usageBytes: bytes, workingSetBytes: bytes },
        };
      });
      const bytes = containers.reduce((a, c) => a + c.memory.usageBytes, 0);
      return {
        podRef: {
          name: r.pod.metadata?.name ?? '',
          namespace: r.pod.metadata?.namespace ?? '',
          uid: r.pod.metadata?.uid ?? '',
        },
        startTime: r.startTime.toISOString(),
        containers,
        cpu,
        memory: { time, usageBytes: bytes, workingSetBytes: bytes },
      };
    });
    const total = pods.reduce((a, p) => a + p.memory.usageBytes, 0);
    return {
      node: {
        nodeName,
        startTime: this.#startTime.toISOString(),
        cpu,
        memory: { time, usageBytes: total, workingSetBytes: total },
      },
      pods,
    };
  }

  #start(running: RunningPod, c: Container): void {
    const [file = '', ...args] = c.command;
    const child = spawn(file, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...c.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    c.process = child;
    const keep = (chunk: Buffer): void => {
      c.logs.push(chunk);
      c.logBytes += chunk.length;
      while (c.logBytes > LOG_BUFFER_BYTES && c.logs.length > 1)
        c.logBytes -= (c.logs.shift() as Buffer).length;
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const startedAt = new Date();
    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
      c.state = { running: { startedAt } };
      this.#report(running);
    });
    const finish = (exitCode: number, reason: string, message?: string): void => {
      c.process = undefined;
      c.state = {
        terminated: {
          exitCode,
          reason,
          message,
          startedAt: spawned ? startedAt : undefined,
          finishedAt: new Date(),
        },
      };
      this.#report(running);
      this.#maybeRestart(running, c, exitCode);
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

  #maybeRestart(running: RunningPod, c: Container, exitCode: number): void {
    if (
      running.deleting ||
      !this.#pods.has(key(running.pod.metadata?.namespace, running.pod.metadata?.name))
    )
      return;
    const policy = running.pod.spec?.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && exitCode === 0)) return;
    const delay = c.backoffMs;
    c.backoffMs = Math.min(c.backoffMs * 2, MAX_RESTART_BACKOFF_MS);
    c.lastState = c.state;
    c.state = {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${delay} ms restarting failed container`,
      },
    };
    this.#report(running);
    this.#clock.setTimer(() => {
      if (running.deleting) return;
      c.restartCount++;
      this.#start(running, c);
    }, delay);
  }

  #status(running: RunningPod): V1PodStatus {
    const statuses: V1ContainerStatus[] = running.containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: '',
      ready: c.state.running !== undefined,
      started: c.state.running !== undefined,
      restartCount: c.restartCount,
      state: structuredClone(c.state),
      lastState: c.lastState === undefined ? undefined : structuredClone(c.lastState),
    }));
    const policy = running.pod.spec?.restartPolicy ?? 'Always';
    const terminated = running.containers.every((c) => c.state.terminated !== undefined);
    const failed = running.containers.some((c) => (c.state.terminated?.exitCode ?? 0) !== 0);
    let phase: string;
    if (running.containers.some((c) => c.state.running !== undefined)) phase = 'Running';
    else if (terminated && (policy === 'Never' || (policy === 'OnFailure' && !failed)))
      phase = failed ? 'Failed' : 'Succeeded';
    else if (running.containers.some((c) => c.restartCount > 0 || c.lastState !== undefined))
      phase = 'Running';
    else phase = 'Pending';
    const ready = phase === 'Running' && statuses.every((s) => s.ready);
    return {
      phase,
      hostIP: this.#internalIP,
      podIP: this.#internalIP,
      podIPs: [{ ip: this.#internalIP }],
      startTime: running.startTime,
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'ContainersReady', status: ready ? 'True' : 'False' },
        { type: 'Ready', status: ready ? 'True' : 'False' },
      ],
      containerStatuses: statuses,
    };
  }

  #report(running: RunningPod): void {
    if (!this.#pods.has(key(running.pod.metadata?.namespace, running.pod.metadata?.name))) return;
    this.#notify({ ...structuredClone(running.pod), status: this.#status(running) });
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
function stopProcess(
  child: ChildProcess | undefined,
  graceMs: number,
  clock: Clock,
): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve();
  return new Promise((resolve) => {
    const timer = clock.setTimer(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      timer.cancel();
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function key(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}
