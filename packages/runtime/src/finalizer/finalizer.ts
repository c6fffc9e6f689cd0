//! Reconcile an object that needs cleanup before it may be deleted (kube-rs' `finalizer()`).

import type { ClientSource, KubeObject } from '@ctrlkit/client';
import type { ObjectWriter } from '../apply/object-writer.js';
import { TerminalError } from '../controller/terminal-error.js';
import { objectClient } from '../internal/object-client.js';
import { FinalizerError } from './finalizer-error.js';
import { addOperations, checkFinalizerName, checkKind, removeOperations } from './finalizers.js';

/**
 * What the reconciler of {@link finalizer} is asked to do (kube-rs' `finalizer::Event`):
 * - `Apply`: make the world match `object`; called again on restarts, updates and
 *   failures, so it must be idempotent;
 * - `Cleanup`: `object` is being deleted: remove what it owns; called again on restarts,
 *   failures and when another finalizer changed meanwhile, so it must be idempotent, and
 *   must tolerate `Apply` never having run or succeeded.
 */
export type FinalizerEvent<T> = { type: 'Apply'; object: T } | { type: 'Cleanup'; object: T };

/**
 * Reconciles `object` while managing the finalizer `finalizerName` on it, so that cleanup
 * runs before the object is gone. In a reconciler it is the only top-level step:
 *
 * 1. the object has no finalizer and is not being deleted: the finalizer is added (JSON
 *    patch tested against the finalizer list the object shows), and nothing else; the
 *    patch's update event brings the next reconcile. Returns `undefined`;
 * 2. it has the finalizer and is not being deleted: `reconcile({ type: 'Apply', object })`;
 * 3. it has the finalizer and is being deleted: `reconcile({ type: 'Cleanup', object })`,
 *    then, only once cleanup succeeded, the finalizer is removed (JSON patch testing that
 *    it is still at its index, so another controller's finalizer is never removed);
 * 4. it is being deleted without the finalizer: nothing to do, returns `undefined`.
 *
 * Returns what `reconcile` returned (a `ReconcileResult` for the `Controller`).
 *
 * Guarantees: if `Apply` ever started, `Cleanup` succeeds before the deletion completes;
 * the finalizer is added before the first `Apply` and removed once, after `Cleanup`
 * succeeded; a failed removal keeps it and the next reconcile cleans up again.
 *
 * Assumptions: `finalizerName` is unique among the controllers of the object; `Apply` and
 * `Cleanup` are idempotent.
 *
 * Caveats: deletion waits while the controller is not running or cleanup keeps failing.
 * Step 1 relies on the update event: a watch whose predicate drops metadata-only updates
 * (`generationChangedPredicate`) must let this one through (or the reconciler requeue).
 * Use the object the event carries, not an older copy.
 *
 * Errors: {@link FinalizerError} with reason `ApplyFailed` / `CleanupFailed` (the
 * reconciler's error as `cause`), `AddFinalizerFailed` / `RemoveFinalizerFailed` (the API
 * error as `cause`, e.g. 422 when the finalizer list changed meanwhile, or 409), or
 * `UnnamedObject`. `InvalidArgumentError` when the object to patch lacks apiVersion or
 * kind (objects from a LIST do: add them). A `TerminalError` thrown by the reconciler is rethrown as it is, so
 * the controller drops the key. `InvalidArgumentError` for a malformed `finalizerName`.
 */
export async function finalizer<T extends KubeObject, R>(
  client: ClientSource | ObjectWriter,
  finalizerName: string,
  object: T,
  reconcile: (event: FinalizerEvent<T>) => Promise<R> | R,
): Promise<R | undefined> {
  checkFinalizerName(finalizerName);
  const index = object.metadata?.finalizers?.indexOf(finalizerName) ?? -1;
  const deleting =
    object.metadata?.deletionTimestamp !== undefined && object.metadata?.deletionTimestamp !== null;
  if (index !== -1 && !deleting) {
    return run(finalizerName, 'ApplyFailed', () => reconcile({ type: 'Apply', object }));
  }
  if (index === -1 && deleting) return undefined; // our work here is done
  if (!object.metadata?.name) throw new FinalizerError('UnnamedObject', finalizerName);
  checkKind(object);
  const writer = objectClient(client);
  if (index === -1) {
    // The finalizer must be in place before Apply may run.
    try {
      await writer.jsonPatch(object, addOperations(object, finalizerName));
    } catch (error) {
      throw new FinalizerError('AddFinalizerFailed', finalizerName, error);
    }
    return undefined;
  }
  // Cleanup must succeed before the finalizer may go.
  const result = await run(finalizerName, 'CleanupFailed', () =>
    reconcile({ type: 'Cleanup', object }),
  );
  try {
    await writer.jsonPatch(object, removeOperations(index, finalizerName));
  } catch (error) {
    throw new FinalizerError('RemoveFinalizerFailed', finalizerName, error);
  }
  return result;
}

async function run<R>(
  finalizerName: string,
  reason: 'ApplyFailed' | 'CleanupFailed',
  step: () => Promise<R> | R,
): Promise<R> {
  try {
    return await step();
  } catch (error) {
    if (TerminalError.isInstance(error)) throw error;
    throw new FinalizerError(reason, finalizerName, error);
  }
}
