//! Pings the node provider on an interval, with at most one ping in flight.

import type { Clock } from '@ctrlkit/core';
import type { NodeProvider } from '../adapter.js';
import { NodeControllerError } from '../node-controller-error.js';

/** The outcome of the latest ping: `error` undefined when it succeeded. */
export interface PingResult {
  /** Clock time the ping check finished, in ms. */
  readonly at: number;
  readonly error: unknown;
}

/**
 * Pings at once, then `intervalMs` after each check finishes. A check joins a ping still
 * in flight instead of starting another; with `timeoutMs`, a check gives up waiting after
 * that long (result: a `PingTimeout` error) while the ping runs on.
 */
export class NodePingController {
  readonly #provider: NodeProvider;
  readonly #intervalMs: number;
  readonly #timeoutMs: number | undefined;
  readonly #clock: Clock;
  #inFlight: Promise<unknown> | undefined;
  #result: PingResult | undefined;
  #waiters: Array<() => void> = [];

  constructor(
    provider: NodeProvider,
    intervalMs: number,
    timeoutMs: number | undefined,
    clock: Clock,
  ) {
    this.#provider = provider;
    this.#intervalMs = intervalMs;
    this.#timeoutMs = timeoutMs;
    this.#clock = clock;
  }

  /** Runs the loop until `signal` aborts; resolves then. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.#check(signal);
      if (signal.aborted) break;
      await new Promise<void>((resolve) => {
        const timer = this.#clock.setTimer(done, this.#intervalMs);
        function done(): void {
          timer.cancel();
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      });
    }
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Waits for a first result (or `signal`), then gives the newest; `undefined` if aborted first. */
  async getResult(signal: AbortSignal): Promise<PingResult | undefined> {
    if (this.#result === undefined && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        signal.addEventListener('abort', done, { once: true });
        this.#waiters.push(done);
      });
    }
    return this.#result;
  }

  async #check(signal: AbortSignal): Promise<void> {
    if (this.#inFlight === undefined) {
      const ping = (async () => this.#provider.ping(signal))().then(
        () => undefined,
        (error: unknown) => error ?? new Error('ping failed'),
      );
      this.#inFlight = ping;
      void ping.finally(() => {
        if (this.#inFlight === ping) this.#inFlight = undefined;
      });
    }
    const inFlight = this.#inFlight;
    let error: unknown;
    if (this.#timeoutMs === undefined) {
      error = await inFlight;
    } else {
      const timeoutMs = this.#timeoutMs;
      let timer: { cancel(): void } | undefined;
      const timeout = new Promise<unknown>((resolve) => {
        timer = this.#clock.setTimer(
          () =>
            resolve(
              new NodeControllerError(
                'PingTimeout',
                `node ping timed out after ${timeoutMs} ms: context deadline exceeded`,
              ),
            ),
          timeoutMs,
        );
      });
      error = await Promise.race([inFlight, timeout]);
      timer?.cancel();
    }
    this.#result = { at: this.#clock.now(), error };
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
