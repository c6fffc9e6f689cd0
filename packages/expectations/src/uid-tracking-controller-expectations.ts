/** KubeVirt's UIDTrackingControllerExpectations: counts each expected deletion once. */

import type { Logger } from '@ctrlkit/core';
import type { ControlleeExpectations } from './controllee-expectations.js';
import {
  ControllerExpectations,
  type ControllerExpectationsInterface,
} from './controller-expectations.js';
import { assertHasMethods, assertKey, assertUID, assertUIDs } from './internal/validate.js';
import { KeyFuncError } from './key-func-error.js';

/** A controller key and the object keys it expects to see deleted (Go's `UIDSet`). */
export interface UIDSet {
  /** The controller key. */
  readonly key: string;
  /** The expected object keys ("namespace/name"). */
  readonly uids: ReadonlySet<string>;
}

/**
 * The key of a `UIDSet` (Go's `UIDSetKeyFunc`).
 * @throws KeyFuncError when `obj` has no string `key` and `uids` set.
 */
export function uidSetKeyFunc(obj: unknown): string {
  if (typeof obj === 'object' && obj !== null) {
    const { key, uids } = obj as { key?: unknown; uids?: unknown };
    if (typeof key === 'string' && uids instanceof Set) return key;
  }
  throw new KeyFuncError('uidSetKeyFunc', 'could not find key for a value that is not a UIDSet');
}

const interfaceMethods = [
  'getExpectations',
  'satisfiedExpectations',
  'deleteExpectations',
  'setExpectations',
  'expectCreations',
  'expectDeletions',
  'creationObserved',
  'deletionObserved',
  'raiseExpectations',
  'lowerExpectations',
  'allPendingCreations',
] as const;

/** Options of `UIDTrackingControllerExpectations`, validated at construction. */
export interface UIDTrackingControllerExpectationsOptions {
  /**
   * The counting store to wrap; every counting method delegates to it. Default: a new
   * `ControllerExpectations()` (real clock, 5-minute timeout).
   */
  expectations?: ControllerExpectationsInterface;
  /** Receives a debug line per change and an error line when a set is clobbered. Default: none. */
  logger?: Logger;
}

/**
 * Controller expectations that remember which objects a controller deleted, so each
 * deletion lowers the count once: an update that sets `deletionTimestamp` and the later
 * delete event may both call `deletionObserved`, and a delete of an object the controller
 * did not delete changes nothing.
 *
 * The tracked values are object keys ("namespace/name", as `controlleeKeyFunc` gives),
 * despite the upstream name. Every method is synchronous; any number of async workers may
 * share one instance.
 */
export class UIDTrackingControllerExpectations {
  readonly #inner: ControllerExpectationsInterface;
  readonly #uids = new Map<string, Set<string>>();
  readonly #logger: Logger | undefined;

  constructor(options: UIDTrackingControllerExpectationsOptions = {}) {
    assertHasMethods(options.expectations, 'options.expectations', interfaceMethods);
    assertHasMethods(options.logger, 'options.logger', ['debug', 'info', 'warn', 'error']);
    this.#inner = options.expectations ?? new ControllerExpectations();
    this.#logger = options.logger;
  }

  /**
   * A copy of the object keys still expected to be deleted for `controllerKey`, or
   * `undefined` when none were ever expected (or they were deleted).
   */
  getUIDs(controllerKey: string): ReadonlySet<string> | undefined {
    assertKey(controllerKey, 'controllerKey');
    const set = this.#uids.get(controllerKey);
    return set === undefined ? undefined : new Set(set);
  }

  /**
   * Expects the deletion of `deletedKeys` (duplicates count once): replaces the tracked set
   * and the counting record (add = 0, del = the set's size, new timestamp). Replacing a
   * non-empty set logs an error, as upstream.
   */
  expectDeletions(controllerKey: string, deletedKeys: readonly string[]): void {
    assertKey(controllerKey, 'controllerKey');
    assertUIDs(deletedKeys, 'deletedKeys');
    const existing = this.#uids.get(controllerKey);
    if (existing !== undefined && existing.size > 0) {
      this.#logger?.error(
        { key: controllerKey, uids: [...existing] },
        'clobbering existing delete keys',
      );
    }
    const set = new Set(deletedKeys);
    this.#uids.set(controllerKey, set);
    this.#logger?.debug({ key: controllerKey, uids: deletedKeys }, 'waiting on deletions');
    this.#inner.expectDeletions(controllerKey, set.size);
  }

  /**
   * Adds one object key to the tracked set, then resets the counting record to expect the
   * whole set's deletion (add = 0, new timestamp).
   */
  addExpectedDeletion(controllerKey: string, deletedKey: string): void {
    assertKey(controllerKey, 'controllerKey');
    assertUID(deletedKey, 'deletedKey');
    let set = this.#uids.get(controllerKey);
    if (set === undefined) {
      set = new Set();
      this.#uids.set(controllerKey, set);
    }
    set.add(deletedKey);
    this.#logger?.debug({ key: controllerKey, uids: [...set] }, 'waiting on deletions');
    this.#inner.expectDeletions(controllerKey, set.size);
  }

  /**
   * Records the deletion of `deleteKey`: lowers the expected deletions by one and forgets
   * the key, but only when it is tracked. An unknown key, or a second observation of the
   * same key, does nothing.
   */
  deletionObserved(controllerKey: string, deleteKey: string): void {
    assertKey(controllerKey, 'controllerKey');
    assertUID(deleteKey, 'deleteKey');
    const set = this.#uids.get(controllerKey);
    if (set?.delete(deleteKey) !== true) return;
    this.#logger?.debug({ key: controllerKey, uids: [deleteKey] }, 'received expected delete');
    this.#inner.deletionObserved(controllerKey);
  }

  /** Removes the counting record and the tracked set; nothing happens when there is none. */
  deleteExpectations(controllerKey: string): void {
    assertKey(controllerKey, 'controllerKey');
    this.#inner.deleteExpectations(controllerKey);
    if (this.#uids.delete(controllerKey)) {
      this.#logger?.debug({ key: controllerKey }, 'deleted delete-key expectations');
    }
  }

  /** Delegates to the wrapped store's `getExpectations`. */
  getExpectations(controllerKey: string): ControlleeExpectations | undefined {
    return this.#inner.getExpectations(controllerKey);
  }

  /** Delegates to the wrapped store's `satisfiedExpectations`. */
  satisfiedExpectations(controllerKey: string): boolean {
    return this.#inner.satisfiedExpectations(controllerKey);
  }

  /** Delegates to the wrapped store's `setExpectations` (the tracked set is untouched). */
  setExpectations(controllerKey: string, add: number, del: number): void {
    this.#inner.setExpectations(controllerKey, add, del);
  }

  /** Delegates to the wrapped store's `expectCreations`. */
  expectCreations(controllerKey: string, adds: number): void {
    this.#inner.expectCreations(controllerKey, adds);
  }

  /** Delegates to the wrapped store's `creationObserved`. */
  creationObserved(controllerKey: string): void {
    this.#inner.creationObserved(controllerKey);
  }

  /** Delegates to the wrapped store's `raiseExpectations`. */
  raiseExpectations(controllerKey: string, add: number, del: number): void {
    this.#inner.raiseExpectations(controllerKey, add, del);
  }

  /** Delegates to the wrapped store's `lowerExpectations`. */
  lowerExpectations(controllerKey: string, add: number, del: number): void {
    this.#inner.lowerExpectations(controllerKey, add, del);
  }

  /** Delegates to the wrapped store's `allPendingCreations`. */
  allPendingCreations(): number {
    return this.#inner.allPendingCreations();
  }
}
