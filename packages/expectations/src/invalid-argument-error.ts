/** The error for an argument rejected at the call. */

import { ExpectationsError } from './expectations-error.js';

const marker = Symbol.for('@ctrlkit/expectations/InvalidArgumentError');

/**
 * An argument was rejected at the call, before any state changed: an empty key, a count
 * that is negative or not a safe integer, a UID that is not a non-empty string, an option
 * out of range. `field` names it (`'key'`, `'add'`, `'uids[2]'`, `'options.timeout'`).
 * `reason` is always `'InvalidArgument'`.
 */
export class InvalidArgumentError extends ExpectationsError {
  /** The argument or option that was rejected. */
  readonly field: string;
  /** The rejected value, as given. */
  readonly value: unknown;
  constructor(field: string, value: unknown, expected: string) {
    super('InvalidArgument', `invalid ${field}: expected ${expected}, got ${describe(value)}`);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'InvalidArgumentError';
    this.field = field;
    this.value = value;
  }

  /** True when `value` is an `InvalidArgumentError` (from any copy of this package). */
  static override isInstance(value: unknown): value is InvalidArgumentError {
    return typeof value === 'object' && value !== null && marker in value;
  }
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
