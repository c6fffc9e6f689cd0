/** One controller's expected creations and deletions: two signed counters and a timestamp. */

import { assertDelta, assertKey } from './internal/validate.js';
import { KeyFuncError } from './key-func-error.js';

/** Anything that is either fulfilled or expires naturally (Go's `Expectations`). */
export interface Expectations {
  /** True when nothing more is expected. */
  fulfilled(): boolean;
}

/**
 * The counts one controller waits for: `add` creations and `del` deletions, set at
 * `timestamp` (ms, from the store's clock). Counters only move through `add()`; they may go
 * below zero when more is observed than was expected, which still counts as fulfilled.
 */
export class ControlleeExpectations implements Expectations {
  /** The controller key the record is stored under. */
  readonly key: string;
  /** When the record was set, in ms from the store's clock. Raise and lower keep it. */
  readonly timestamp: number;
  #add: number;
  #del: number;

  constructor(key: string, add: number, del: number, timestamp: number) {
    assertKey(key);
    assertDelta(add, 'add');
    assertDelta(del, 'del');
    this.key = key;
    this.#add = add;
    this.#del = del;
    this.timestamp = timestamp;
  }

  /** Increments both counters (negative values decrement). */
  add(add: number, del: number): void {
    assertDelta(add, 'add');
    assertDelta(del, 'del');
    this.#add += add;
    this.#del += del;
  }

  /** True when no creation and no deletion is still expected (both counters ≤ 0). */
  fulfilled(): boolean {
    return this.#add <= 0 && this.#del <= 0;
  }

  /** The counters as `[add, del]`. */
  getExpectations(): [add: number, del: number] {
    return [this.#add, this.#del];
  }

  /** True when more than `timeoutMs` have passed since `timestamp` (strictly). */
  isExpired(now: number, timeoutMs: number): boolean {
    return now - this.timestamp > timeoutMs;
  }

  /** For logs: key, timestamp, add and del. */
  toString(): string {
    return `ControlleeExpectations{key: ${this.key}, timestamp: ${this.timestamp}, add: ${this.#add}, del: ${this.#del}}`;
  }

  /** The fields for a structured log line. */
  toJSON(): { key: string; timestamp: number; add: number; del: number } {
    return { key: this.key, timestamp: this.timestamp, add: this.#add, del: this.#del };
  }
}

/**
 * The key of a `ControlleeExpectations` record (Go's `ExpKeyFunc`).
 * @throws KeyFuncError when `obj` is not a `ControlleeExpectations`.
 */
export function expKeyFunc(obj: unknown): string {
  if (obj instanceof ControlleeExpectations) return obj.key;
  throw new KeyFuncError(
    'expKeyFunc',
    'could not find key for a value that is not a ControlleeExpectations',
  );
}
