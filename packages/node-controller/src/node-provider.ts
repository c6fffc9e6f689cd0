//! virtual-kubelet's naive node providers: healthy while running, and one that sends the status it is given.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import type { NodeProvider } from './adapter.js';

/**
 * A node provider that is healthy while its signal is live and never reports a status change
 * (virtual-kubelet's `NaiveNodeProvider`).
 */
export class NaiveNodeProvider implements NodeProvider {
  async ping(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
  }

  /** A no-op: this provider never changes the node's status. */
  notifyNodeStatus(_signal: AbortSignal, _callback: (node: Wire<V1Node>) => void): void {}
}

/**
 * Like {@link NaiveNodeProvider}, but {@link NaiveNodeProviderV2.updateStatus} sends a node
 * status to the controller (virtual-kubelet's `NaiveNodeProviderV2`). Make it with
 * {@link newNaiveNodeProvider}.
 */
export class NaiveNodeProviderV2 implements NodeProvider {
  #callback: ((node: Wire<V1Node>) => void) | undefined;
  #registered!: () => void;
  readonly #whenRegistered = new Promise<void>((resolve) => {
    this.#registered = resolve;
  });

  async ping(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
  }

  /** Keeps `callback` (the first one registered) for {@link updateStatus}. */
  notifyNodeStatus(_signal: AbortSignal, callback: (node: Wire<V1Node>) => void): void {
    if (this.#callback !== undefined) return;
    this.#callback = callback;
    this.#registered();
  }

  /**
   * Sends `node` to the controller, after waiting for it to register its callback.
   * Rejects with the signal's reason when `signal` aborts first.
   */
  async updateStatus(signal: AbortSignal, node: Wire<V1Node>): Promise<void> {
    signal.throwIfAborted();
    if (this.#callback === undefined) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        void this.#whenRegistered.then(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    this.#callback?.(node);
  }
}

/** Makes a {@link NaiveNodeProviderV2} (virtual-kubelet's `NewNaiveNodeProvider`). */
export function newNaiveNodeProvider(): NaiveNodeProviderV2 {
  return new NaiveNodeProviderV2();
}
