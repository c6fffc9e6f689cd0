//! What a reconciler is: a function of a key that brings the world in line, and the result it may return.

import type { TerminalError } from './terminal-error.js';

/** What a reconcile asks for besides success (controller-runtime's `reconcile.Result`). */
export interface ReconcileResult {
  /** Requeue through the rate limiter, as after an error but without logging one. */
  requeue?: boolean;
  /**
   * Requeue after this many milliseconds (the rate limiter's count is reset). Wins over
   * `requeue`. A result with the old name `requeueAfter` counts as a reconcile error
   * (an `InvalidArgumentError` naming `requeueAfterMs`, logged and retried).
   */
  requeueAfterMs?: number;
}

/**
 * Brings the world in line with the desired state of one key ("namespace/name", or
 * "name" for cluster-scoped objects). Throw to retry with backoff; throw a
 * {@link TerminalError} to give up on the key; return a {@link ReconcileResult} to requeue.
 */
export type Reconciler = (key: string, signal: AbortSignal) => Promise<MaybeResult> | MaybeResult;

/** What a reconciler returns: a result, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a reconciler that returns nothing is the common case
export type MaybeResult = ReconcileResult | undefined | void;
