/** KubeVirt's ControllerExpectations: a barrier that holds a controller until its writes are seen. */

import { type Clock, type Logger, realClock, rejectRenamedOptions } from '@ctrlkit/core';
import { ControlleeExpectations } from './controllee-expectations.js';
import { assertCount, assertDuration, assertHasMethods, assertKey } from './internal/validate.js';

/**
 * How long (ms) unfulfilled expectations hold a controller back before they count as
 * satisfied anyway: if a watch drops an event, the controller wakes after this long.
 * 5 minutes, as upstream.
 */
export const ExpectationsTimeout = 5 * 60 * 1000;

/**
 * The most create or delete calls a controller should make in a row in one sync, to
 * avoid an unintentional DoS of the API server (KubeVirt's `BurstReplicas`).
 */
export const BurstReplicas = 250;

/** The default `name` of a ControllerExpectations, used only in logs. */
export const DefaultExpectationsName = 'n/a';

/** Options of `ControllerExpectations`, validated at construction. */
export interface ControllerExpectationsOptions {
  /** A name for log lines. Default `DefaultExpectationsName` ("n/a"). */
  name?: string;
  /**
   * After how many ms an unfulfilled record counts as satisfied; expiry is strict
   * (`now - timestamp > timeoutMs`). Default `ExpectationsTimeout` (5 minutes). The old
   * name `timeout` is rejected with an `InvalidArgumentError` naming this one.
   */
  timeoutMs?: number;
  /** Where time comes from. Default `realClock`. */
  clock?: Clock;
  /** Receives a debug line per change. Default: no logging. */
  logger?: Logger;
}

/**
 * What a controller needs of an expectations store (Go's
 * `ControllerExpectationsInterface`): `ControllerExpectations` implements it, and
 * `UIDTrackingControllerExpectations` wraps any implementation.
 */
export interface ControllerExpectationsInterface {
  /** The record for `controllerKey`, or `undefined`. */
  getExpectations(controllerKey: string): ControlleeExpectations | undefined;
  /** True when the controller may act: no record, fulfilled, or expired. */
  satisfiedExpectations(controllerKey: string): boolean;
  /** Removes the record. */
  deleteExpectations(controllerKey: string): void;
  /** Replaces the record with fresh counters and a new timestamp. */
  setExpectations(controllerKey: string, add: number, del: number): void;
  /** `setExpectations(controllerKey, adds, 0)`. */
  expectCreations(controllerKey: string, adds: number): void;
  /** `setExpectations(controllerKey, 0, dels)`. */
  expectDeletions(controllerKey: string, dels: number): void;
  /** Lowers `add` by one. */
  creationObserved(controllerKey: string): void;
  /** Lowers `del` by one. */
  deletionObserved(controllerKey: string): void;
  /** Adds to both counters of an existing record. */
  raiseExpectations(controllerKey: string, add: number, del: number): void;
  /** Subtracts from both counters of an existing record. */
  lowerExpectations(controllerKey: string, add: number, del: number): void;
  /** The sum of `add` over all records. */
  allPendingCreations(): number;
}

/**
 * A map from controller key to what that controller expects to see before it acts again.
 *
 * Set expectations before the writes (`expectCreations(key, n)`), lower them from the
 * informer's events (`creationObserved(key)`), and skip the sync while
 * `satisfiedExpectations(key)` is false. A record is satisfied when fulfilled or older than
 * the timeout; it is never evicted, so call `deleteExpectations(key)` when the controller
 * object is deleted.
 *
 * Every method is synchronous and does its read-modify-write in one step, so any number of
 * async workers may share one instance.
 */
export class ControllerExpectations implements ControllerExpectationsInterface {
  /** The name given in the options, for logs. */
  readonly name: string;
  readonly #records = new Map<string, ControlleeExpectations>();
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;

  constructor(options: ControllerExpectationsOptions = {}) {
    rejectRenamedOptions(options, { timeout: 'timeoutMs' }, 'options');
    const { name = DefaultExpectationsName, timeoutMs = ExpectationsTimeout } = options;
    assertKey(name, 'options.name');
    assertDuration(timeoutMs, 'options.timeoutMs');
    assertHasMethods(options.clock, 'options.clock', ['now']);
    assertHasMethods(options.logger, 'options.logger', ['debug', 'info', 'warn', 'error']);
    this.name = name;
    this.#timeoutMs = timeoutMs;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger;
  }

  /** The live record for `controllerKey`, or `undefined` when there is none. */
  getExpectations(controllerKey: string): ControlleeExpectations | undefined {
    assertKey(controllerKey, 'controllerKey');
    return this.#records.get(controllerKey);
  }

  /**
   * True when the controller may sync: there is no record (a new controller, or one whose
   * expectations were deleted), or the record is fulfilled, or it is older than the
   * timeout. False only while a fresh record still waits for events.
   */
  satisfiedExpectations(controllerKey: string): boolean {
    assertKey(controllerKey, 'controllerKey');
    const exp = this.#records.get(controllerKey);
    if (exp === undefined) {
      this.#logger?.debug(
        { name: this.name, key: controllerKey },
        'controller either never recorded expectations, or they were deleted',
      );
      return true;
    }
    if (exp.fulfilled()) {
      this.#logger?.debug(
        { name: this.name, ...exp.toJSON() },
        'controller expectations fulfilled',
      );
      return true;
    }
    if (exp.isExpired(this.#clock.now(), this.#timeoutMs)) {
      this.#logger?.debug({ name: this.name, ...exp.toJSON() }, 'controller expectations expired');
      return true;
    }
    this.#logger?.debug(
      { name: this.name, ...exp.toJSON() },
      'controller still waiting on expectations',
    );
    return false;
  }

  /** Removes the record for `controllerKey`; nothing happens when there is none. */
  deleteExpectations(controllerKey: string): void {
    assertKey(controllerKey, 'controllerKey');
    if (this.#records.delete(controllerKey)) {
      this.#logger?.debug({ name: this.name, key: controllerKey }, 'deleted expectations');
    }
  }

  /**
   * Replaces any record for `controllerKey` with one expecting `add` creations and `del`
   * deletions, timestamped now.
   * @throws InvalidArgumentError for an empty key or a count that is not a non-negative integer.
   */
  setExpectations(controllerKey: string, add: number, del: number): void {
    assertKey(controllerKey, 'controllerKey');
    assertCount(add, 'add');
    assertCount(del, 'del');
    const exp = new ControlleeExpectations(controllerKey, add, del, this.#clock.now());
    this.#records.set(controllerKey, exp);
    this.#logger?.debug({ name: this.name, ...exp.toJSON() }, 'setting expectations');
  }

  /** Replaces the record with one expecting `adds` creations (and no deletions). */
  expectCreations(controllerKey: string, adds: number): void {
    this.setExpectations(controllerKey, adds, 0);
  }

  /** Replaces the record with one expecting `dels` deletions (and no creations). */
  expectDeletions(controllerKey: string, dels: number): void {
    this.setExpectations(controllerKey, 0, dels);
  }

  /** Lowers the expected creations by one; nothing happens when there is no record. */
  creationObserved(controllerKey: string): void {
    this.lowerExpectations(controllerKey, 1, 0);
  }

  /** Lowers the expected deletions by one; nothing happens when there is no record. */
  deletionObserved(controllerKey: string): void {
    this.lowerExpectations(controllerKey, 0, 1);
  }

  /**
   * Adds `add` and `del` to an existing record, keeping its timestamp; nothing happens when
   * there is no record.
   */
  raiseExpectations(controllerKey: string, add: number, del: number): void {
    this.#shift(controllerKey, add, del, 1, 'raised expectations');
  }

  /**
   * Subtracts `add` and `del` from an existing record, keeping its timestamp; counters may
   * go below zero. Nothing happens when there is no record.
   */
  lowerExpectations(controllerKey: string, add: number, del: number): void {
    this.#shift(controllerKey, add, del, -1, 'lowered expectations');
  }

  /** The sum of the expected creations over all records (negative counters included). */
  allPendingCreations(): number {
    let sum = 0;
    for (const exp of this.#records.values()) sum += exp.getExpectations()[0];
    return sum;
  }

  #shift(controllerKey: string, add: number, del: number, sign: 1 | -1, msg: string): void {
    assertKey(controllerKey, 'controllerKey');
    assertCount(add, 'add');
    assertCount(del, 'del');
    const exp = this.#records.get(controllerKey);
    if (exp === undefined) return;
    exp.add(sign * add, sign * del);
    this.#logger?.debug({ name: this.name, ...exp.toJSON() }, msg);
  }
}
