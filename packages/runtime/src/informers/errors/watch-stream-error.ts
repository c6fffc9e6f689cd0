//! The error for a watch stream that broke: a line that is not JSON, an unknown event type.

import { InformerError } from './informer-error.js';

const marker = Symbol.for('@ctrlkit/runtime/WatchStreamError');

/**
 * The watch stream carried something the reflector cannot use (a malformed line, an
 * event type it does not know). The reflector logs it, drops the connection and watches
 * again from the last resource version it saw.
 */
export class WatchStreamError extends InformerError {
  readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super('WatchStream', message, options);
    this.name = 'WatchStreamError';
  }

  /** True for any WatchStreamError, also one made by another copy of this package. */
  static override isInstance(error: unknown): error is WatchStreamError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
