/** Grove's ExpectationsStore: the UIDs a controller created or deleted that its cache has not shown yet. */

import type { Logger } from '@ctrlkit/core';
import { assertHasMethods, assertKey, assertUID, assertUIDs } from './internal/validate.js';

/**
 * A snapshot of one controller's expectations in an `ExpectationsStore` (Grove's
 * `ControlleeExpectations`): the UIDs it created but has not seen in the informer cache,
 * and the UIDs it deleted that the cache still shows as live. The sets are copies.
 */
export interface ControlleeUIDExpectations {
  /** The controller key. */
  readonly key: string;
  /** UIDs expected to appear in the cache. */
  readonly uidsToAdd: ReadonlySet<string>;
  /** UIDs expected to disappear from the cache (or to be terminating). */
  readonly uidsToDelete: ReadonlySet<string>;
}

/** Options of `ExpectationsStore`, validated at construction. */
export interface ExpectationsStoreOptions {
  /**
   * Receives a debug line per change, naming the key and the UIDs; a method's own
   * `logger` argument takes its place for that call. Default: no logging.
   */
  logger?: Logger;
}

interface UIDRecord {
  readonly add: Set<string>;
  readonly del: Set<string>;
}

/**
 * An in-memory store of the UIDs each controller expects to be created and deleted. Unlike
 * `ControllerExpectations` it is not a barrier: a reconciler lists its objects from the
 * informer cache, calls `syncExpectations` with what it saw (which drops every expectation
 * the cache has caught up with), then counts the pending creations and deletions into the
 * desired number of writes.
 *
 * Records are created by `expectCreations`/`expectDeletions` and removed only by
 * `deleteExpectations`; call it when the controller object is deleted. Every method is
 * synchronous and does its read-modify-write in one step, so any number of async workers
 * may share one store. Getters return copies.
 */
export class ExpectationsStore {
  readonly #records = new Map<string, UIDRecord>();
  readonly #logger: Logger | undefined;

  constructor(options: ExpectationsStoreOptions = {}) {
    assertHasMethods(options.logger, 'options.logger', ['debug', 'info', 'warn', 'error']);
    this.#logger = options.logger;
  }

  /**
   * Expects `uids` (just created; a UID is known only after the create call) to appear in
   * the cache. Creates the record if needed. Does not touch the delete expectations.
   * @throws InvalidArgumentError for an empty key or a UID that is not a non-empty string.
   */
  expectCreations(controlleeKey: string, uids: readonly string[], logger?: Logger): void {
    this.#raise(controlleeKey, uids, 'uidsToAdd', logger);
  }

  /**
   * Expects `uids` (about to be deleted) to disappear from the cache. Creates the record if
   * needed; a UID expected to be created is no longer expected to be.
   * @throws InvalidArgumentError for an empty key or a UID that is not a non-empty string.
   */
  expectDeletions(controlleeKey: string, uids: readonly string[], logger?: Logger): void {
    this.#raise(controlleeKey, uids, 'uidsToDelete', logger);
  }

  /**
   * Forgets `uids` from both sets (a delete event was seen). Nothing happens when there is
   * no record; there is no `observeCreations`: `syncExpectations` does that work.
   */
  observeDeletions(controlleeKey: string, uids: readonly string[], logger?: Logger): void {
    assertKey(controlleeKey, 'controlleeKey');
    assertUIDs(uids, 'uids');
    const rec = this.#records.get(controlleeKey);
    if (rec === undefined) return;
    for (const uid of uids) {
      rec.add.delete(uid);
      rec.del.delete(uid);
    }
    (logger ?? this.#logger)?.debug({ key: controlleeKey, uids }, 'lowered expectations');
  }

  /**
   * Brings the record in line with the informer cache, the source of truth. With the UIDs
   * the cache shows for the controller, split into live and terminating (with a
   * `deletionTimestamp`):
   * 1. a live UID is no longer expected to be created;
   * 2. a delete expectation is kept only while its UID is still live (gone or terminating
   *    UIDs are dropped);
   * 3. every terminating UID is expected to be deleted (so a restart during a grace period
   *    still counts it).
   *
   * Nothing happens when there is no record.
   * @throws InvalidArgumentError for an empty key or a UID that is not a non-empty string.
   */
  syncExpectations(
    controlleeKey: string,
    existingNonTerminatingUIDs: readonly string[],
    existingTerminatingUIDs: readonly string[] = [],
  ): void {
    assertKey(controlleeKey, 'controlleeKey');
    assertUIDs(existingNonTerminatingUIDs, 'existingNonTerminatingUIDs');
    assertUIDs(existingTerminatingUIDs, 'existingTerminatingUIDs');
    const rec = this.#records.get(controlleeKey);
    if (rec === undefined) return;
    const { add, del } = rec;
    if (del.size === 0) {
      for (const uid of existingNonTerminatingUIDs) {
        if (add.size === 0) break;
        add.delete(uid);
      }
    } else {
      // One pass over the listed UIDs: drop creations seen, collect deletions still live.
      const live: string[] = [];
      for (const uid of existingNonTerminatingUIDs) {
        if (add.size > 0) add.delete(uid);
        if (del.has(uid)) live.push(uid);
      }
      del.clear();
      for (const uid of live) del.add(uid);
    }
    for (const uid of existingTerminatingUIDs) del.add(uid);
  }

  /** A copy of the record for `controlleeKey`, or `undefined` when there is none. */
  getExpectations(controlleeKey: string): ControlleeUIDExpectations | undefined {
    assertKey(controlleeKey, 'controlleeKey');
    const rec = this.#records.get(controlleeKey);
    if (rec === undefined) return undefined;
    return { key: controlleeKey, uidsToAdd: new Set(rec.add), uidsToDelete: new Set(rec.del) };
  }

  /** The UIDs expected to be created, as a new unordered array (empty without a record). */
  getCreateExpectations(controlleeKey: string): string[] {
    assertKey(controlleeKey, 'controlleeKey');
    const rec = this.#records.get(controlleeKey);
    return rec === undefined ? [] : [...rec.add];
  }

  /** The UIDs expected to be deleted, as a new unordered array (empty without a record). */
  getDeleteExpectations(controlleeKey: string): string[] {
    assertKey(controlleeKey, 'controlleeKey');
    const rec = this.#records.get(controlleeKey);
    return rec === undefined ? [] : [...rec.del];
  }

  /** True when `uid` is expected to be deleted for `controlleeKey` (false without a record). */
  hasDeleteExpectation(controlleeKey: string, uid: string): boolean {
    assertKey(controlleeKey, 'controlleeKey');
    assertUID(uid, 'uid');
    return this.#records.get(controlleeKey)?.del.has(uid) ?? false;
  }

  /** Removes the record for `controlleeKey`; nothing happens (and nothing throws) without one. */
  deleteExpectations(controlleeKey: string, logger?: Logger): void {
    assertKey(controlleeKey, 'controlleeKey');
    if (this.#records.delete(controlleeKey)) {
      (logger ?? this.#logger)?.debug({ key: controlleeKey }, 'deleted expectations');
    }
  }

  #raise(
    controlleeKey: string,
    uids: readonly string[],
    into: 'uidsToAdd' | 'uidsToDelete',
    logger: Logger | undefined,
  ): void {
    assertKey(controlleeKey, 'controlleeKey');
    assertUIDs(uids, 'uids');
    let rec = this.#records.get(controlleeKey);
    const created = rec === undefined;
    if (rec === undefined) {
      rec = { add: new Set(), del: new Set() };
      this.#records.set(controlleeKey, rec);
    }
    if (into === 'uidsToAdd') {
      for (const uid of uids) rec.add.add(uid);
    } else {
      for (const uid of uids) {
        rec.add.delete(uid);
        rec.del.add(uid);
      }
    }
    (logger ?? this.#logger)?.debug(
      { key: controlleeKey, [into]: uids },
      created ? 'created expectations' : 'raised expectations',
    );
  }
}
