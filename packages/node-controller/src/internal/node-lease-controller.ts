//! Renews the node's Lease in kube-node-lease (virtual-kubelet's lease controller v1).

import type { Clock, Logger } from '@ctrlkit/core';
import { isConflict, isNotFound, sleep } from '@ctrlkit/core';
import { formatMicroTime, type Wire } from '@ctrlkit/runtime/client';
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import type { LeasesClient } from '../kube-clients.js';
import { MAX_LEASE_UPDATE_ATTEMPTS, NODE_LEASE_NAMESPACE } from '../node-lease.js';
import { deepCopy } from './deep-copy.js';

/** First delay of the GET retry in ensureLease (doubled before use), and its cap, in ms. */
const ENSURE_BACKOFF_BASE_MS = 100;
const ENSURE_BACKOFF_CAP_MS = 7_000;

export interface NodeLeaseControllerOptions {
  client: LeasesClient;
  leaseDurationSeconds: number;
  renewIntervalMs: number;
  clock: Clock;
  wallTime: () => Date;
  logger: Logger;
  /** The node as the API last returned it. */
  serverNode: () => Wire<V1Node> | undefined;
  /** Whether the last ping succeeded (waits for the first). */
  pingSucceeded: (signal: AbortSignal) => Promise<boolean>;
}

/** Syncs the lease at once, then `renewIntervalMs` after each sync, until the signal aborts. */
export class NodeLeaseController {
  readonly #o: NodeLeaseControllerOptions;
  #latestLease: Wire<V1Lease> | undefined;

  constructor(options: NodeLeaseControllerOptions) {
    this.#o = options;
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.sync(signal);
      await sleep(this.#o.clock, this.#o.renewIntervalMs, signal);
    }
  }

  /** One renewal round. */
  async sync(signal: AbortSignal): Promise<void> {
    if (!(await this.#o.pingSucceeded(signal))) {
      this.#o.logger.debug({}, 'skipping node lease renewal: node ping failed');
      return;
    }
    const node = this.#o.serverNode();
    if (node === undefined) return;
    if (this.#latestLease !== undefined) {
      if (await this.#retryUpdateLease(signal, node, this.#latestLease)) return;
    }
    const ensured = await this.#ensureLease(signal, node);
    if (ensured === undefined || ensured.created) return;
    await this.#retryUpdateLease(signal, node, ensured.lease);
  }

  async #ensureLease(
    signal: AbortSignal,
    node: Wire<V1Node>,
  ): Promise<{ lease: Wire<V1Lease>; created: boolean } | undefined> {
    const name = node.metadata?.name ?? '';
    let delay = ENSURE_BACKOFF_BASE_MS;
    while (!signal.aborted) {
      try {
        const lease = await this.#o.client.readNamespacedLease({
          name,
          namespace: NODE_LEASE_NAMESPACE,
        });
        this.#latestLease = lease;
        return { lease, created: false };
      } catch (error) {
        if (!isNotFound(error)) {
          this.#o.logger.error({ err: error }, 'failed to get node lease');
          delay = Math.min(delay * 2, ENSURE_BACKOFF_CAP_MS);
          await sleep(this.#o.clock, delay, signal);
          continue;
        }
      }
      try {
        const lease = await this.#o.client.createNamespacedLease({
          namespace: NODE_LEASE_NAMESPACE,
          body: this.#newLease(node, undefined),
        });
        this.#latestLease = lease;
        return { lease, created: true };
      } catch (error) {
        this.#o.logger.error({ err: error }, 'failed to create node lease');
        delay = Math.min(delay * 2, ENSURE_BACKOFF_CAP_MS);
        await sleep(this.#o.clock, delay, signal);
      }
    }
    return undefined;
  }

  /** Up to {@link MAX_LEASE_UPDATE_ATTEMPTS} updates; true on success. */
  async #retryUpdateLease(
    signal: AbortSignal,
    node: Wire<V1Node>,
    base: Wire<V1Lease>,
  ): Promise<boolean> {
    let current = base;
    for (let attempt = 0; attempt < MAX_LEASE_UPDATE_ATTEMPTS; attempt++) {
      if (signal.aborted) return false;
      const name = node.metadata?.name ?? '';
      try {
        this.#latestLease = await this.#o.client.replaceNamespacedLease({
          name,
          namespace: NODE_LEASE_NAMESPACE,
          body: this.#newLease(node, current),
        });
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        this.#o.logger.warn({ err: error, attempt }, 'failed to update node lease');
        if (isConflict(error)) {
          const ensured = await this.#ensureLease(signal, node);
          if (ensured === undefined) return false;
          if (ensured.created) return true;
          current = ensured.lease;
        }
      }
    }
    this.#o.logger.error(
      { node: node.metadata?.name },
      `failed after ${MAX_LEASE_UPDATE_ATTEMPTS} attempts to update node lease`,
    );
    return false;
  }

  /** A lease to write: a copy of `base`, or a new one for `node`; renewed now, owned by the node. */
  #newLease(node: Wire<V1Node>, base: Wire<V1Lease> | undefined): Wire<V1Lease> {
    const name = node.metadata?.name ?? '';
    const lease: Wire<V1Lease> =
      base === undefined
        ? {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name, namespace: NODE_LEASE_NAMESPACE },
            spec: { holderIdentity: name, leaseDurationSeconds: this.#o.leaseDurationSeconds },
          }
        : { ...deepCopy(base), apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
    lease.spec ??= {};
    // Six fractional digits, as the apiserver requires of a MicroTime.
    lease.spec.renewTime = formatMicroTime(this.#o.wallTime());
    lease.metadata ??= {};
    const uid = node.metadata?.uid;
    if ((lease.metadata.ownerReferences ?? []).length === 0 && uid !== undefined && uid !== '') {
      lease.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name, uid }];
    }
    return lease;
  }
}
