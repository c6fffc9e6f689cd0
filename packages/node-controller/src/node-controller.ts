//! Registers a virtual Node and keeps it alive: pings, status updates and the node lease.

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
import { type ClientSource, formatTime, type Wire } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import type { NodeProvider } from './adapter.js';
import { deepCopy } from './internal/deep-copy.js';
import { NodeLeaseController } from './internal/node-lease-controller.js';
import { NodePingController } from './internal/node-ping-controller.js';
import { nodeStatusPatch } from './internal/node-status-patch.js';
import { type LeasesClient, leasesClient, type NodesClient, nodesClient } from './kube-clients.js';
import { NodeControllerError } from './node-controller-error.js';

/** How often the provider is pinged, in ms (the seed's `DefaultPingInterval`, 10 s). */
export const DEFAULT_PING_INTERVAL_MS = 10_000;
/** How often the node status is written when a lease is on, in ms (`DefaultStatusUpdateInterval`, 1 min). */
export const DEFAULT_STATUS_UPDATE_INTERVAL_MS = 60_000;
/** The node lease duration, in seconds (`DefaultLeaseDuration`, as the kubelet's). */
export const DEFAULT_LEASE_DURATION_SECONDS = 40;
/** The lease is renewed every `floor(duration × this)` seconds (`DefaultRenewIntervalFraction`). */
export const DEFAULT_RENEW_INTERVAL_FRACTION = 0.25;
/** Tries of a conflicting status patch (client-go's `DefaultRetry`: 5 steps, 10 ms apart). */
const STATUS_PATCH_STEPS = 5;
const STATUS_PATCH_DELAY_MS = 10;
const STATUS_PATCH_JITTER = 0.1;

/**
 * Called when a node status update fails (the seed's `ErrorHandler`). Resolving means the
 * error is handled and one more update is tried (e.g. after re-creating a deleted node);
 * throwing makes the update fail with that error.
 */
export type ErrorHandler = (signal: AbortSignal, error: unknown) => Promise<void> | void;

/** The node lease (coordination.k8s.io/v1, namespace `kube-node-lease`, named after the node). */
export interface NodeLeaseOptions {
  /** The Lease calls: the runtime's client (`manager.client`), or a {@link LeasesClient}. Required. */
  client: LeasesClient | ClientSource;
  /** Seconds; `0` or absent means {@link DEFAULT_LEASE_DURATION_SECONDS}. Must exceed the renew interval. */
  leaseDurationSeconds?: number;
  /** Renew interval in ms. Default: `floor(duration × DEFAULT_RENEW_INTERVAL_FRACTION)` s, which must not be 0. */
  renewIntervalMs?: number;
}

/**
 * Options of {@link NodeController}: one object, as the seed's
 * `NewNodeController(p, node, nodes, opts...)` with its functional options (`WithNodePingInterval`, …) folded in.
 */
export interface NodeControllerOptions {
  /** The node's backend (the seed's `NodeProvider`), e.g. `new NaiveNodeProvider()`. Required. */
  provider: NodeProvider;
  /** The Node to register; `metadata.name` is required. Copied at construction. */
  node: Wire<V1Node>;
  /** The Node calls: the runtime's client (`manager.client`), or a {@link NodesClient}. Required. */
  nodes: NodesClient | ClientSource;
  /** Ms between pings; without a lease, also between status updates. `0`/absent: {@link DEFAULT_PING_INTERVAL_MS}. */
  pingIntervalMs?: number;
  /** Ms a ping may take before it counts as failed (`PingTimeout`). Absent: no limit. `0` is rejected. */
  pingTimeoutMs?: number;
  /** Ms between status updates when a lease is on; ignored without one. `0`/absent: {@link DEFAULT_STATUS_UPDATE_INTERVAL_MS}. */
  statusUpdateIntervalMs?: number;
  /** Called when a status update fails. Absent: the error is logged and the next update tries again. */
  statusUpdateErrorHandler?: ErrorHandler;
  /** Turns the node lease on (`WithNodeEnableLeaseV1`). Absent: no lease, the status is updated every ping. */
  lease?: NodeLeaseOptions;
  /** Default: the real clock. */
  clock?: Clock;
  /** Default: no logging. */
  logger?: Logger;
}

/**
 * Registers one Node with Kubernetes and keeps it up to date (the seed's `NodeController`).
 * Constructing it makes no API call; {@link NodeController.run} registers the node (creating
 * it when absent), then pings the provider, writes the status, and renews the lease.
 */
export class NodeController {
  /** Resolves once the node is registered and the control loop runs; never on a startup failure. */
  readonly ready: Promise<void>;
  /** Resolves when `run` has returned; `err` says whether it failed. */
  readonly done: Promise<void>;

  readonly #provider: NodeProvider;
  readonly #nodes: NodesClient;
  readonly #pingIntervalMs: number;
  readonly #pingTimeoutMs: number | undefined;
  readonly #statusUpdateIntervalMs: number;
  readonly #errorHandler: ErrorHandler | undefined;
  readonly #lease:
    | { client: LeasesClient; leaseDurationSeconds: number; renewIntervalMs: number }
    | undefined;
  readonly #clock: Clock;
  readonly #wallTime: () => Date;
  readonly #logger: Logger;
  readonly #ping: NodePingController;
  /** The node as the controller wants it. */
  #node: Wire<V1Node>;
  /** The node as the API last returned it. */
  #serverNode: Wire<V1Node> | undefined;
  #pending: Wire<V1Node> | undefined;
  #wakeLoop: (() => void) | undefined;
  #err: unknown;
  #started = false;
  #resolveReady!: () => void;
  #resolveDone!: () => void;

  /**
   * @throws InvalidArgumentError naming the option at fault (`provider`, `node.metadata.name`,
   *   `nodes`, `pingIntervalMs`, `lease.leaseDurationSeconds`, …)
   */
  constructor(options: NodeControllerOptions) {
    const o = checkOptions(options);
    const { provider, node, nodes } = o;
    this.#provider = provider;
    this.#nodes = isNodesClient(nodes) ? nodes : nodesClient(nodes);
    this.#node = deepCopy(node);
    this.#pingIntervalMs = intervalOrDefault(
      o.pingIntervalMs,
      'pingIntervalMs',
      DEFAULT_PING_INTERVAL_MS,
    );
    this.#statusUpdateIntervalMs = intervalOrDefault(
      o.statusUpdateIntervalMs,
      'statusUpdateIntervalMs',
      DEFAULT_STATUS_UPDATE_INTERVAL_MS,
    );
    this.#pingTimeoutMs = o.pingTimeoutMs;
    this.#errorHandler = o.statusUpdateErrorHandler;
    this.#lease = o.lease === undefined ? undefined : validateLease(o.lease);
    this.#clock = o.clock ?? realClock;
    this.#wallTime = () => new Date(this.#clock.now());
    this.#logger = o.logger ?? noopLogger;
    this.#ping = new NodePingController(
      provider,
      this.#pingIntervalMs,
      this.#pingTimeoutMs,
      this.#clock,
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
   * Registers the node (creating it on NotFound), then runs the ping loop, the lease loop
   * and the status loop until `signal` aborts; resolves then. Rejects (and sets `err`) when
   * the first ping or the registration fails. Call once.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#started)
      throw new NodeControllerError('AlreadyRunning', 'the node controller is already running');
    this.#started = true;
    const loops = new AbortController();
    const stop = (): void => loops.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    const running: Promise<void>[] = [];
    try {
      this.#provider.notifyNodeStatus(loops.signal, (node) => {
        this.#pending = deepCopy(node);
        this.#wakeLoop?.();
      });
      running.push(this.#ping.run(loops.signal));
      await this.#ensureNode(loops.signal);
      if (this.#lease !== undefined) {
        const lease = new NodeLeaseController({
          ...this.#lease,
          clock: this.#clock,
          wallTime: this.#wallTime,
          logger: this.#logger,
          serverNode: () => this.#serverNode,
          pingSucceeded: async (s) => (await this.#ping.getResult(s))?.error === undefined,
        });
        running.push(lease.run(loops.signal));
      }
      await this.#controlLoop(loops.signal);
    } catch (error) {
      this.#err = error;
      throw error;
    } finally {
      loops.abort();
      signal.removeEventListener('abort', stop);
      await Promise.allSettled(running);
      this.#resolveDone();
    }
  }

  async #ensureNode(signal: AbortSignal): Promise<void> {
    try {
      await this.#updateStatus(signal, true);
      return;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    let created: Wire<V1Node>;
    try {
      created = await this.#nodes.createNode({ body: this.#node });
    } catch (error) {
      throw new NodeControllerError(
        'RegistrationFailed',
        `error registering node with kubernetes: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    this.#serverNode = created;
    this.#node.metadata ??= {};
    const meta = this.#node.metadata;
    meta.name = created.metadata?.name;
    meta.namespace = created.metadata?.namespace;
    meta.uid = created.metadata?.uid;
    this.#logger.info({ node: meta.name }, 'registered node');
  }

  async #controlLoop(signal: AbortSignal): Promise<void> {
    const intervalMs =
      this.#lease === undefined ? this.#pingIntervalMs : this.#statusUpdateIntervalMs;
    this.#resolveReady();
    while (!signal.aborted) {
      let timerFired = false;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          timer.cancel();
          signal.removeEventListener('abort', wake);
          this.#wakeLoop = undefined;
          resolve();
        };
        const timer = this.#clock.setTimer(() => {
          timerFired = true;
          wake();
        }, intervalMs);
        signal.addEventListener('abort', wake, { once: true });
        this.#wakeLoop = wake;
        if (this.#pending !== undefined) wake();
      });
      if (signal.aborted) return;
      const update = this.#pending;
      this.#pending = undefined;
      if (update !== undefined) {
        this.#node.metadata ??= {};
        const meta = this.#node.metadata;
        this.#node.status = update.status;
        meta.annotations = update.metadata?.annotations;
        meta.labels = update.metadata?.labels;
      } else if (!timerFired) continue;
      try {
        await this.#updateStatus(signal, false);
      } catch (error) {
        if (!signal.aborted) this.#logger.error({ err: error }, 'error updating node status');
      }
    }
  }

  async #updateStatus(signal: AbortSignal, skipErrorHandler: boolean): Promise<void> {
    const ping = await this.#ping.getResult(signal);
    if (ping === undefined) return;
    if (ping.error !== undefined) {
      throw new NodeControllerError(
        'NodeNotReady',
        `not updating node status because node ping failed: ${errorMessage(ping.error)}`,
        { cause: ping.error },
      );
    }
    const now = formatTime(this.#wallTime());
    for (const condition of this.#node.status?.conditions ?? []) condition.lastHeartbeatTime = now;
    try {
      this.#serverNode = await updateNodeStatus(this.#nodes, this.#node, this.#clock, signal);
    } catch (error) {
      if (skipErrorHandler || this.#errorHandler === undefined) throw error;
      await this.#errorHandler(signal, error);
      this.#serverNode = await updateNodeStatus(this.#nodes, this.#node, this.#clock, signal);
    }
  }
}

/**
 * Reads the node named like `node` and patches its status, labels and annotations three-way
 * towards `node` (a strategic merge patch: conditions and addresses merge by type), retrying
 * a Conflict up to 5 times 10 ms apart. Returns the patched node; throws NotFound when it
 * does not exist.
 */
export async function updateNodeStatus(
  nodes: NodesClient,
  node: Wire<V1Node>,
  clock: Clock,
  signal: AbortSignal,
): Promise<Wire<V1Node>> {
  const name = node.metadata?.name ?? '';
  for (let step = 1; ; step++) {
    const server = await nodes.readNode({ name });
    try {
      return await nodes.patchNodeStatus({ name, body: nodeStatusPatch(server, node) });
    } catch (error) {
      if (!isConflict(error) || step >= STATUS_PATCH_STEPS || signal.aborted) throw error;
      await sleep(clock, STATUS_PATCH_DELAY_MS * (1 + Math.random() * STATUS_PATCH_JITTER), signal);
    }
  }
}

/** Throws InvalidArgumentError for the first option at fault; returns the options. */
function checkOptions(options: NodeControllerOptions): NodeControllerOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'must be an object { provider, node, nodes, ... }');
  }
  const o = options as Partial<NodeControllerOptions> & Partial<NodeProvider>;
  if (o.provider === undefined && typeof o.ping === 'function') {
    throw new InvalidArgumentError(
      'options',
      'NodeController takes one options object { provider, node, nodes, ... }, not (provider, node, nodes, options)',
    );
  }
  const { provider, node, nodes } = o;
  if (
    provider === null ||
    typeof provider?.ping !== 'function' ||
    typeof provider.notifyNodeStatus !== 'function'
  ) {
    throw new InvalidArgumentError('provider', 'must implement ping and notifyNodeStatus');
  }
  if (typeof node?.metadata?.name !== 'string' || node.metadata.name === '') {
    throw new InvalidArgumentError('node.metadata.name', 'must not be empty');
  }
  if (nodes === null || typeof nodes !== 'object') {
    throw new InvalidArgumentError('nodes', 'a Node client is required');
  }
  if (o.pingTimeoutMs !== undefined) {
    if (o.pingTimeoutMs === 0)
      throw new InvalidArgumentError('pingTimeoutMs', 'Node ping timeout is 0');
    if (!(o.pingTimeoutMs > 0) || !Number.isFinite(o.pingTimeoutMs)) {
      throw new InvalidArgumentError(
        'pingTimeoutMs',
        `must be a number of ms > 0, got ${o.pingTimeoutMs}`,
      );
    }
  }
  if (
    o.statusUpdateErrorHandler !== undefined &&
    typeof o.statusUpdateErrorHandler !== 'function'
  ) {
    throw new InvalidArgumentError('statusUpdateErrorHandler', 'must be a function');
  }
  return options;
}

function intervalOrDefault(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined || value === 0) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(field, `must be a number of ms > 0, got ${String(value)}`);
  }
  return value;
}

function validateLease(lease: NodeLeaseOptions): {
  client: LeasesClient;
  leaseDurationSeconds: number;
  renewIntervalMs: number;
} {
  if (lease.client === undefined || lease.client === null) {
    throw new InvalidArgumentError('lease.client', 'a lease client is required');
  }
  let duration = lease.leaseDurationSeconds ?? 0;
  if (duration === 0) duration = DEFAULT_LEASE_DURATION_SECONDS;
  if (!Number.isInteger(duration) || duration < 0) {
    throw new InvalidArgumentError(
      'lease.leaseDurationSeconds',
      `must be a whole number of seconds > 0, got ${duration}`,
    );
  }
  let renewIntervalMs = lease.renewIntervalMs;
  if (renewIntervalMs === undefined) {
    renewIntervalMs = Math.floor(duration * DEFAULT_RENEW_INTERVAL_FRACTION) * 1000;
    if (renewIntervalMs === 0) {
      throw new InvalidArgumentError(
        'lease.leaseDurationSeconds',
        `${duration} s gives a renew interval of 0 s (floor(duration × ${DEFAULT_RENEW_INTERVAL_FRACTION}))`,
      );
    }
  }
  if (!(renewIntervalMs > 0) || !Number.isFinite(renewIntervalMs)) {
    throw new InvalidArgumentError(
      'lease.renewIntervalMs',
      `must be a number of ms > 0, got ${renewIntervalMs}`,
    );
  }
  if (duration * 1000 <= renewIntervalMs) {
    throw new InvalidArgumentError(
      'lease.renewIntervalMs',
      `the lease duration (${duration} s) must be longer than the renew interval (${renewIntervalMs} ms)`,
    );
  }
  const client = isLeasesClient(lease.client) ? lease.client : leasesClient(lease.client);
  return { client, leaseDurationSeconds: duration, renewIntervalMs };
}

function isNodesClient(nodes: NodesClient | ClientSource): nodes is NodesClient {
  return typeof (nodes as Partial<NodesClient>).readNode === 'function';
}

function isLeasesClient(leases: LeasesClient | ClientSource): leases is LeasesClient {
  return typeof (leases as Partial<LeasesClient>).readNamespacedLease === 'function';
}
