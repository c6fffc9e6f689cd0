/** The error for a key function that cannot derive a key. */

import { ExpectationsError } from './expectations-error.js';

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
    this.keyFunc = keyFunc;
  }
}
