// Argument checks shared by the stores: each throws an InvalidArgumentError naming the field.

import { InvalidArgumentError } from '../invalid-argument-error.js';

/** A key must be a non-empty string. */
export function assertKey(key: unknown, field = 'key'): asserts key is string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new InvalidArgumentError(field, key, 'a non-empty string');
  }
}

/** A count of expected operations must be a non-negative safe integer. */
export function assertCount(count: unknown, field: string): asserts count is number {
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
    throw new InvalidArgumentError(field, count, 'a non-negative integer');
  }
}

/** A signed delta must be a safe integer. */
export function assertDelta(delta: unknown, field: string): asserts delta is number {
  if (typeof delta !== 'number' || !Number.isSafeInteger(delta)) {
    throw new InvalidArgumentError(field, delta, 'an integer');
  }
}

/** A duration must be a finite, non-negative number of ms. */
export function assertDuration(ms: unknown, field: string): asserts ms is number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw new InvalidArgumentError(field, ms, 'a finite, non-negative number of ms');
  }
}

/** A UID (or object key) must be a non-empty string. */
export function assertUID(uid: unknown, field: string): asserts uid is string {
  if (typeof uid !== 'string' || uid.length === 0) {
    throw new InvalidArgumentError(field, uid, 'a non-empty string');
  }
}

/** A list of UIDs must be an array of non-empty strings; `field` names the list. */
export function assertUIDs(uids: unknown, field: string): asserts uids is readonly string[] {
  if (!Array.isArray(uids)) {
    throw new InvalidArgumentError(field, uids, 'an array of strings');
  }
  for (let i = 0; i < uids.length; i++) {
    const uid: unknown = uids[i];
    if (typeof uid !== 'string' || uid.length === 0) {
      throw new InvalidArgumentError(`${field}[${i}]`, uid, 'a non-empty string');
    }
  }
}

/** An optional object with the named methods (a clock, a logger). */
export function assertHasMethods(value: unknown, field: string, methods: readonly string[]): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'object' &&
    value !== null &&
    methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
  if (!ok) {
    throw new InvalidArgumentError(field, value, `an object with ${methods.join(', ')}()`);
  }
}
