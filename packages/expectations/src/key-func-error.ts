/** The error for a key function that cannot derive a key. */

import { ExpectationsError } from './expectations-error.js';

const marker = Symbol.for('@ctrlkit/expectations/KeyFuncError');

/**
 * A key function (`expKeyFunc`, `uidSetKeyFunc`, `controlleeKeyFunc`) was given a value it
 * cannot key: not a record of the right kind, or an object without `metadata.name`.
 * `keyFunc` names the function; `cause` carries an underlying error where there is one.
 * `reason` is always `'KeyFunc'`.
 */
export class KeyFuncError extends ExpectationsError {
  /** The key function that failed. */
  readonly keyFunc: string;
  constructor(keyFunc: string, message: string, options?: { cause?: unknown }) {
    super('KeyFunc', `${keyFunc}: ${message}`, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'KeyFuncError';
    this.keyFunc = keyFunc;
  }

  /** True when `value` is a `KeyFuncError` (from any copy of this package). */
  static override isInstance(value: unknown): value is KeyFuncError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
