// Argument checks shared by the stores: each throws an InvalidArgumentError naming the field.

import { InvalidArgumentError } from '@ctrlkit/core';

/** A key must be a non-empty string. */
export function assertKey(key: unknown, field = 'key'): asserts key is string {
  if (typeof key !== 'string' || key.length === 0) {
    throw invalid(field, key, 'a non-empty string');
  }
}

/** A count of expected operations must be a non-negative safe integer. */
export function assertCount(count: unknown, field: string): asserts count is number {
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
    throw invalid(field, count, 'a non-negative integer');
  }
}

/** A signed delta must be a safe integer. */
export function assertDelta(delta: unknown, field: string): asserts delta is number {
  if (typeof delta !== 'number' || !Number.isSafeInteger(delta)) {
    throw invalid(field, delta, 'an integer');
  }
}

/** A duration must be a finite, non-negative number of ms. */
export function assertDuration(ms: unknown, field: string): asserts ms is number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw invalid(field, ms, 'a finite, non-negative number of ms');
  }
}

/** A UID (or object key) must be a non-empty string. */
export function assertUID(uid: unknown, field: string): asserts uid is string {
  if (typeof uid !== 'string' || uid.length === 0) {
    throw invalid(field, uid, 'a non-empty string');
  }
}

/** A list of UIDs must be an array of non-empty strings; `field` names the list. */
export function assertUIDs(uids: unknown, field: string): asserts uids is readonly string[] {
  if (!Array.isArray(uids)) {
    throw invalid(field, uids, 'an array of strings');
  }
  for (let i = 0; i < uids.length; i++) {
    const uid: unknown = uids[i];
    if (typeof uid !== 'string' || uid.length === 0) {
      throw invalid(`${field}[${i}]`, uid, 'a non-empty string');
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
    throw invalid(field, value, `an object with ${methods.join(', ')}()`);
  }
}

/** The error for `value` given as `field` where `expected` was wanted. */
export function invalid(field: string, value: unknown, expected: string): InvalidArgumentError {
  return new InvalidArgumentError(field, `expected ${expected}, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
